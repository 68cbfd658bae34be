import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

/**
 * A PGlite data folder fresh from `initdb`, made once per project (under `.fw/test/`) and copied for each app a test
 * starts: PGlite's `initdb` runs in WebAssembly and takes seconds (tens on a busy machine), a copy of its ~30 MB
 * takes a fraction of one. Made in a folder of its own and renamed into place, so test processes running side by
 * side never see half of one.
 */
export async function pgliteTemplate(testDir: string): Promise<string> {
  const version = pgliteVersion();
  const template = path.join(testDir, `pglite-template-${version}`);
  if (fs.existsSync(path.join(template, 'PG_VERSION'))) return template;
  const making = `${template}.${process.pid}-${randomBytes(4).toString('hex')}`;
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(making);
  await db.close();
  try {
    fs.renameSync(making, template);
  } catch {
    // Another process made it meanwhile: theirs is as good.
    fs.rmSync(making, { recursive: true, force: true });
  }
  return template;
}

/** Gives each database of the app a copy of the template, where the embedded engine looks for its data. */
export function copyPgliteTemplate(template: string, dataDir: string, databaseIds: readonly string[]): void {
  for (const id of databaseIds) fs.cpSync(template, path.join(dataDir, 'databases', id, 'pglite'), { recursive: true });
}

/** Gives each database of the app its copy of a migrated template (see `migratedTemplate`). */
export function copyMigratedPglite(template: string, dataDir: string, databaseIds: readonly string[]): void {
  for (const id of databaseIds) {
    const folder = path.join('databases', id, 'pglite');
    fs.cpSync(path.join(template, folder), path.join(dataDir, folder), { recursive: true });
  }
}

/** The installed PGlite's version (its package.json is not in its exports map: found from its entry file). */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
    dir = path.dirname(dir);
  }
}
