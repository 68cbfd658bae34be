import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run from packages/testing). */
export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * A copy of examples/tasks-api in a temporary folder, `node_modules` linked to the repository's. Readable by others,
 * so a native postgres running as another user reaches its `.fw/`. Removed by the returned function.
 */
export function copyExample(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-testing-'));
  fs.chmodSync(dir, 0o755);
  fs.cpSync(path.join(REPO, 'examples', 'tasks-api'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw)$/.test(src) });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
