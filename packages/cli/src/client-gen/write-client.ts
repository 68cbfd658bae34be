import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClientRoute } from './client-tree.js';
import { GENERATED_HEADER, renderClient } from './render-client.js';

/** Where `fw gen client` writes the client, project-relative: a source file beside the routes, to commit and import. */
export const CLIENT_FILE = 'src/client.gen.ts';

/** Whether `file` (absolute) holds a client this generator wrote, so it may be rewritten. */
export function isGeneratedClient(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').startsWith(GENERATED_HEADER);
  } catch {
    return false;
  }
}

/**
 * Writes the client of `routes` to `<rootDir>/<file>`, only when its text changed (an unchanged file keeps its time
 * stamp, so watchers and type checkers see nothing). Resolves whether it wrote.
 */
export function writeClient(rootDir: string, routes: readonly ClientRoute[], file: string = CLIENT_FILE): boolean {
  const absolute = path.join(rootDir, file);
  const text = renderClient(routes, path.posix.dirname(file.split(path.sep).join('/')));
  let current: string | undefined;
  try {
    current = fs.readFileSync(absolute, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return false;
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  // Written aside and renamed: fw dev's type checker or an editor never reads half a file.
  const temporary = `${absolute}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, absolute);
  return true;
}
