import { compiledEntry } from '../../package-files.js';

/** The compiled worker entry of function threads (from sources, the bundle or `lib/`: always `lib/`'s file). */
export const FUNCTION_WORKER_URL = compiledEntry('dev/functions/function-worker.js');

/**
 * The Node flags of worker threads: the parent's, minus module loaders. Workers run compiled JavaScript only, and a
 * TypeScript loader inherited from a test runner (`--import tsx`) made function threads hang.
 */
export function workerExecArgv(parent: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  const withValue = new Set(['--import', '--loader', '--experimental-loader', '--require', '-r']);
  for (let i = 0; i < parent.length; i++) {
    const arg = parent[i]!;
    if (withValue.has(arg)) {
      i++;
      continue;
    }
    if ([...withValue].some((flag) => arg.startsWith(`${flag}=`))) continue;
    out.push(arg);
  }
  return out;
}
