import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { MigrationFileError } from '../errors.js';
import { loadMigrations } from './load-migrations.js';

export interface CreateMigrationOptions {
  /**
   * Prefix style when the folder has no migrations yet; afterwards the existing files decide (a folder of 14-digit
   * timestamps gets a timestamp, else the next number).
   * @default 'number'
   */
  readonly style?: 'number' | 'timestamp';
  /** Clock for timestamp prefixes. @default - the current time */
  readonly now?: Date;
}

/**
 * Writes `<dir>/<prefix>_<name>.sql` with an up and a down section and returns its path. The prefix is the next
 * number after the highest existing one (`0001`, `0002`, ...), or a UTC timestamp (`20260115093000`).
 */
export async function createMigrationFile(dir: string, name: string, options: CreateMigrationOptions = {}): Promise<string> {
  const slug = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (!slug) throw new MigrationFileError(`Migration name ${JSON.stringify(name)} has no letters or digits; use something like "create_tasks".`);
  const existing = await loadMigrations(dir);
  const highest = existing.reduce((max, m) => (BigInt(m.version) > max ? BigInt(m.version) : max), 0n);
  const timestamps = existing.length > 0 ? existing.some((m) => m.fileName.match(/^\d+/)?.[0].length === 14) : options.style === 'timestamp';
  let prefix: string;
  if (timestamps) {
    const stamp = BigInt((options.now ?? new Date()).toISOString().replace(/\D/g, '').slice(0, 14));
    prefix = (stamp > highest ? stamp : highest + 1n).toString();
  } else {
    const width = Math.max(4, ...existing.map((m) => m.fileName.match(/^\d+/)?.[0].length ?? 0));
    prefix = (highest + 1n).toString().padStart(width, '0');
  }
  const file = path.join(dir, `${prefix}_${slug}.sql`);
  await mkdir(dir, { recursive: true });
  const body = [
    `-- ${slug.replace(/_/g, ' ')}`,
    '-- Applied once, in a transaction, by `fw migrate` (and before new code takes traffic on deploy).',
    '-- Never edit this file once it has been applied anywhere: add a new migration instead.',
    '',
    '',
    '-- down',
    '-- SQL that undoes the above (optional: leave only comments if it cannot be undone).',
    '',
  ].join('\n');
  // 'wx': never overwrite a file someone created in the meantime.
  await writeFile(file, body, { flag: 'wx' });
  return file;
}
