import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder (where its package.json is), found from this module's URL. This module runs from
 * `src/` (tests under a TypeScript loader), from `lib/` (the compiled CLI) or from the bundle in
 * `lib/bundle/` (what the `fw` executable runs, see `scripts/bundle.mjs`), each at its own depth; so files are named
 * from the package root, never relative to the module that needs them.
 */
function packageRoot(): URL {
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 4; depth++) {
    if (fs.existsSync(fileURLToPath(new URL('package.json', dir)))) return dir;
    dir = new URL('..', dir);
  }
  throw new Error(`@framework/cli: no package.json above ${fileURLToPath(import.meta.url)} (the package is incomplete: install it again)`);
}

let root: URL | undefined;

/** A file of this package, from its root: `packageFile('lib/dev/functions/function-worker.js')`. */
export function packageFile(pathFromRoot: string): URL {
  root ??= packageRoot();
  return new URL(pathFromRoot, root);
}

/**
 * The compiled JavaScript entry of a worker thread or child process (`lib/<path>`). Threads and child processes run
 * the compiled files, also when the CLI itself runs from its bundle or from TypeScript sources.
 */
export function compiledEntry(pathInLib: string): URL {
  return packageFile(`lib/${pathInLib}`);
}
