import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the dev server keeps the list of packages the handlers import (`_preload.mjs` of its build folder). */
const inDataDir = (dataDir: string) => path.join(dataDir, 'dev', 'build', '_preload.mjs');
const inTestDir = (testDir: string) => path.join(testDir, 'handler-preload.mjs');

/**
 * The dev server starts its spare function threads before the handlers are compiled, loading the packages the last
 * run's handlers imported; a run without that list starts them bare and replaces them once the build has listed the
 * packages, so the first request waits for a second boot. `fw dev` keeps the list in `.fw/dev/build/`; a test app's
 * build folder is new each time, so the harness keeps the list of the last app that stopped (`.fw/test/`) and gives
 * it to the next one. A stale list costs nothing more than none: the build replaces the spares as before.
 */
export function restoreHandlerPreload(testDir: string, dataDir: string): void {
  const kept = inTestDir(testDir);
  if (!fs.existsSync(kept)) return;
  fs.mkdirSync(path.dirname(inDataDir(dataDir)), { recursive: true });
  fs.copyFileSync(kept, inDataDir(dataDir));
}

/** Keeps the stopping app's list for the next app (written aside and renamed: test processes run side by side). */
export function keepHandlerPreload(testDir: string, dataDir: string): void {
  const list = inDataDir(dataDir);
  if (!fs.existsSync(list)) return;
  const making = `${inTestDir(testDir)}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.copyFileSync(list, making);
    fs.renameSync(making, inTestDir(testDir));
  } catch {
    fs.rmSync(making, { force: true });
  }
}
