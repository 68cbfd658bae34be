const INSPECT_FLAG = /^--(inspect|inspect-brk|inspect-wait|inspect-port|debug-port)(=|$)/;

/**
 * Node flags for a child process of fw dev: the parent's minus the inspector's. A child given `--inspect` (from
 * `node --inspect fw dev` or NODE_OPTIONS) would try the debugger's port too, fail, and take the engine down.
 */
export function childExecArgv(parent: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const arg = parent[i]!;
    if (!INSPECT_FLAG.test(arg)) out.push(arg);
    // `--inspect-port 9230` carries its value in the next word.
    else if (/^--(inspect-port|debug-port)$/.test(arg)) i++;
  }
  return out;
}

/** The environment of a child process of fw dev: NODE_OPTIONS without the inspector's flags. */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!env.NODE_OPTIONS) return { ...env };
  const options = childExecArgv(env.NODE_OPTIONS.split(/\s+/).filter(Boolean)).join(' ');
  const { NODE_OPTIONS: _dropped, ...rest } = env;
  return options ? { ...rest, NODE_OPTIONS: options } : rest;
}
