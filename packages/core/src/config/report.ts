import type * as t from 'io-ts';
import type { ConfigProblem, ConfigProblemCode } from '../errors.js';

/**
 * Turns io-ts validation errors into `ConfigProblem`s with a readable path (`envs.prod.overrides.functions.memorySize`,
 * `infrastructure.queues[0].batchSize`) under `root`.
 */
export function reportErrors(errors: t.Errors, root: string): ConfigProblem[] {
  return errors.map((error) => {
    let path = root;
    for (const entry of error.context.slice(1)) path = joinPath(path, entry.key);
    const raw = error.message ?? `expected ${error.context[error.context.length - 1]?.type.name ?? 'a valid value'}`;
    const match = /^(FW_ERR_[A-Z_]+) ([\s\S]*)$/.exec(raw);
    const code = (match?.[1] ?? 'FW_ERR_CONFIG_INVALID_VALUE') as ConfigProblemCode;
    return { code, path, message: match?.[2] ?? raw };
  });
}

/**
 * Appends one key to a problem path: `a.b`, `a[0]` for indexes, and `a["odd key"]` for keys a dotted path cannot
 * show (empty, spaces, dots), so a path is never empty and always points at one place.
 */
export function joinPath(path: string, key: string): string {
  if (/^\d+$/.test(key)) return `${path}[${key}]`;
  if (!/^[A-Za-z_$][\w$:-]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}
