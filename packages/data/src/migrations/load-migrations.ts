import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { MigrationFileError } from '../errors.js';
import { parseMigration, type Migration } from './migration-file.js';

/**
 * The `.sql` files of a folder, parsed and ordered by their numeric prefix (numbers compare as numbers, so `10_x`
 * comes after `9_y`). Other files (a README) are ignored; a missing folder is no migrations.
 */
export async function loadMigrations(dir: string): Promise<Migration[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const migrations = await Promise.all(
    names.filter((n) => n.toLowerCase().endsWith('.sql')).map(async (n) => parseMigration(n, await readFile(path.join(dir, n), 'utf8'))),
  );
  return sortMigrations(migrations);
}

export function sortMigrations(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => {
    const d = BigInt(a.version) - BigInt(b.version);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1] as Migration, sorted[i] as Migration];
    if (prev.version === cur.version) {
      throw new MigrationFileError(`Migration files ${prev.fileName} and ${cur.fileName} share the version ${cur.version}. Give one of them the next free number (fw migrate create does).`);
    }
  }
  return sorted;
}
