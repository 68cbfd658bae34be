import { createHash } from 'node:crypto';
import { MigrationFileError } from '../errors.js';

/** One SQL migration file, parsed. */
export interface Migration {
  /** The numeric prefix without leading zeros (`0007_add_tags.sql` → `7`): what the migrations table records. */
  readonly version: string;
  /** The part after the prefix (`add_tags`). */
  readonly name: string;
  readonly fileName: string;
  /** SQL applied by `migrate` (everything above the `-- down` line). */
  readonly up: string;
  /** SQL applied by a rollback (below the `-- down` line); undefined when the file has none (or only comments). */
  readonly down?: string;
  /** SHA-256 of the up section (line endings normalized): editing an applied migration changes it. */
  readonly checksum: string;
  /** The file starts with `-- fw:no-transaction` (for statements such as CREATE INDEX CONCURRENTLY). */
  readonly transactional: boolean;
}

/** `0001_create_tasks.sql`, `20260115093000-add-index.sql`: a numeric prefix, `_` or `-`, a name. */
export const MIGRATION_FILE = /^(\d+)[_-]([A-Za-z0-9][A-Za-z0-9_.-]*)\.sql$/;

/** The line that starts the down section: exactly `-- down` (any case, surrounding blanks allowed). */
const DOWN_MARKER = /^[ \t]*--[ \t]*down[ \t]*$/im;
const NO_TRANSACTION = /^\s*--[ \t]*fw:no-transaction[ \t]*$/im;

export function parseMigration(fileName: string, content: string): Migration {
  const match = MIGRATION_FILE.exec(fileName);
  if (!match) {
    throw new MigrationFileError(`Migration file ${fileName}: the name must be a number, "_" or "-", a name and ".sql" (e.g. 0001_create_tasks.sql). Rename it, or move it out of the migrations folder.`);
  }
  const text = content.replace(/\r\n/g, '\n');
  const marker = DOWN_MARKER.exec(text);
  const up = marker ? text.slice(0, marker.index) : text;
  const downText = marker ? text.slice(marker.index + marker[0].length) : undefined;
  const down = downText !== undefined && hasStatements(downText) ? downText.trim() + '\n' : undefined;
  return {
    version: BigInt(match[1] as string).toString(),
    name: match[2] as string,
    fileName,
    up: up.trim() + '\n',
    ...(down !== undefined ? { down } : {}),
    checksum: createHash('sha256').update(up.trim()).digest('hex'),
    transactional: !NO_TRANSACTION.test(up.split('\n').slice(0, 5).join('\n')),
  };
}

/** Whether SQL text holds more than comments and blanks. */
export function hasStatements(text: string): boolean {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/--.*$/gm, '').trim().length > 0;
}
