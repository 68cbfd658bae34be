import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled worker entry of function threads. Run from TypeScript source (tests under a TypeScript loader) there is
 * no `.js` next to this file, so the package's compiled `lib/` copy is used.
 */
function functionWorkerEntry(): URL {
  const here = new URL('./function-worker.js', import.meta.url);
  if (fs.existsSync(fileURLToPath(here))) return here;
  return new URL('../../../lib/dev/functions/function-worker.js', import.meta.url);
}
export const FUNCTION_WORKER_URL = functionWorkerEntry();

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
