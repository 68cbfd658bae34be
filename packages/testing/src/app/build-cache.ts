import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The compiled handlers test apps share (`.fw/test/build/`): each app compiles into its own data folder, and fw dev
 * takes a previous run's bundle of a file that did not change since (its manifest's stamps, see the cli's
 * `HandlerBundler.reuseLastRun`). Without this every `startApp` compiled every handler of the app again (41 files,
 * 0.7-1.5 s of esbuild beside the first request); with it only what changed since the last app.
 *
 * The bundles import packages by name and point at their sources by relative paths that are the same from every
 * app's folder (`.fw/test/<app>/dev/build/`), so a copy works in any of them.
 */
function cacheDir(testDir: string): string {
  return path.join(testDir, 'build');
}

/** Lays the shared bundles down where the app's dev server compiles (before it starts). */
export function seedBuild(testDir: string, dataDir: string): void {
  const cache = cacheDir(testDir);
  if (!fs.existsSync(cache)) return;
  try {
    fs.cpSync(cache, path.join(dataDir, 'dev', 'build'), { recursive: true });
  } catch {
    // Only an accelerator: the dev server compiles what is missing.
  }
}

/**
 * Keeps the app's bundles for the next apps when they differ from the shared ones (`manifest` names the file that
 * lists them). Copied aside and swapped in by renames: apps of other test processes never see half a folder; when
 * two race, one of theirs stays, which is as good.
 */
export function keepBuild(testDir: string, dataDir: string, manifest: string): void {
  const build = path.join(dataDir, 'dev', 'build');
  const cache = cacheDir(testDir);
  const read = (dir: string) => {
    try {
      return fs.readFileSync(path.join(dir, manifest), 'utf8');
    } catch {
      return undefined;
    }
  };
  const ours = read(build);
  if (ours === undefined || ours === read(cache)) return;
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const aside = `${cache}.${suffix}`;
  const old = `${cache}.old-${suffix}`;
  try {
    fs.cpSync(build, aside, { recursive: true });
    if (fs.existsSync(cache)) fs.renameSync(cache, old);
    fs.renameSync(aside, cache);
  } catch {
    // Another app swapped its own in meanwhile.
  } finally {
    fs.rmSync(aside, { recursive: true, force: true });
    fs.rmSync(old, { recursive: true, force: true });
  }
}
