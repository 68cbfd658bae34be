import * as path from 'node:path';
import type { AppDefinition, DatabaseDefinition } from '@framework/core';
import { Database, DevServerNotRunningError } from '@framework/data';
import { createMigrationFile, migrate, migrationStatus, rollbackMigrations, type MigrationStatus } from '@framework/data/migrations';
import { loadApp } from '../app-loader/index.js';
import { readStateFile, stateFilePath } from '../dev/state-file.js';
import { MigrateCommandError } from '../errors.js';

const USAGE = [
  'fw migrate [--db <id>]                 apply pending migrations to the database of the running fw dev',
  'fw migrate status [--db <id>]          list applied, pending, changed and missing migrations',
  'fw migrate create <name> [--db <id>]   write the next numbered migration file',
  'fw migrate down [--steps 1] [--db <id>] roll back the newest migrations (local only)',
  'fw migrate [status] --stage <stage>    the same against a deployed stage (through its migration function)',
].join('\n');

interface MigrateArguments {
  action: 'apply' | 'status' | 'create' | 'down';
  name?: string;
  stage?: string;
  db?: string;
  steps: number;
}

function bad(message: string): MigrateCommandError {
  return new MigrateCommandError('FW_ERR_MIGRATE_BAD_ARGUMENT', `${message}\nUsage:\n${USAGE}`);
}

export function parseMigrateArguments(argv: readonly string[]): MigrateArguments {
  const args: MigrateArguments = { action: 'apply', steps: 1 };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw bad(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '--stage':
        args.stage = value();
        break;
      case '--db':
        args.db = value();
        break;
      case '--steps': {
        const text = value();
        if (!/^[1-9]\d*$/.test(text)) throw bad(`--steps ${text}: expected a positive whole number.`);
        args.steps = Number(text);
        break;
      }
      default:
        if (arg.startsWith('-')) throw bad(`Unknown option ${arg}.`);
        positional.push(arg);
    }
  }
  const [sub, ...rest] = positional;
  if (sub === undefined || sub === 'apply' || sub === 'up') args.action = 'apply';
  else if (sub === 'status' || sub === 'create' || sub === 'down') args.action = sub;
  else throw bad(`Unknown subcommand "${sub}".`);
  if (args.action === 'create') {
    if (rest.length !== 1) throw bad('fw migrate create needs one name, e.g. fw migrate create add_due_date.');
    args.name = rest[0] as string;
  } else if (rest.length > 0) throw bad(`Unexpected argument "${rest[0]}".`);
  if (args.stage !== undefined && (args.action === 'create' || args.action === 'down')) {
    throw bad(`fw migrate ${args.action} works on the local project only; drop --stage (deployments apply new files on fw deploy).`);
  }
  return args;
}

export interface MigrateCommandOptions {
  /** Project folder. @default process.cwd() */
  readonly cwd?: string;
  /** Where lines go. @default process.stdout */
  readonly out?: (line: string) => void;
}

/**
 * `fw migrate`. Locally it works against the database of the project's running `fw dev` (it reads the connection from
 * `.fw/dev/state.json`, which `fw dev` writes), so the migrations land where the functions read. `--stage <stage>` invokes the
 * deployed stage's migration function (`@framework/data/migrate-handler`), the same code deployment runs.
 */
export async function runMigrate(argv: readonly string[], options: MigrateCommandOptions = {}): Promise<number> {
  const rootDir = path.resolve(options.cwd ?? process.cwd());
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const args = parseMigrateArguments(argv);
  const dataDir = path.join(rootDir, '.fw');

  if (args.stage !== undefined) return remote(args, await loadApp(rootDir, args.stage), out);

  if (args.action === 'create') {
    const state = readStateFile(dataDir);
    const app = await loadApp(rootDir, state?.stage ?? 'dev');
    const database = pickDatabase(app, args.db);
    const file = await createMigrationFile(path.join(rootDir, database.migrationsDir), args.name as string);
    out(`created ${path.relative(rootDir, file)}`);
    return 0;
  }

  const state = readStateFile(dataDir);
  if (!state) {
    throw new DevServerNotRunningError(
      `fw dev is not running for ${rootDir} (no ${path.relative(rootDir, stateFilePath(dataDir))} of a live process). ` +
        'Start it in another terminal with `fw dev` (it applies pending migrations when it starts), then run fw migrate again; ' +
        'for a deployed stage use fw migrate --stage <stage>.',
    );
  }
  const app = await loadApp(rootDir, state.stage);
  const database = pickDatabase(app, args.db);
  const dir = path.join(rootDir, database.migrationsDir);
  const db = new Database({ databaseId: database.id, env: state.env, maxConnections: 1, logger: { warn: (message) => out(`warning: ${message}`) } });
  try {
    if (args.action === 'status') {
      printStatus(await migrationStatus(db, { dir }), out);
      return 0;
    }
    if (args.action === 'down') {
      const rolled = await rollbackMigrations(db, { dir, steps: args.steps, onProgress: out });
      if (rolled.length === 0) out('nothing to roll back');
      return 0;
    }
    const result = await migrate(db, { dir, onProgress: out });
    out(result.applied.length === 0 ? `database ${database.id} is up to date (${result.alreadyApplied} applied)` : `applied ${result.applied.length} migration(s) to ${database.id}`);
    return 0;
  } finally {
    await db.end();
  }
}

async function remote(args: MigrateArguments, app: AppDefinition, out: (line: string) => void): Promise<number> {
  const database = pickDatabase(app, args.db);
  const { invokeMigrationFunction } = await import('@framework/data/remote');
  out(`invoking ${database.migrationFunctionName} (${app.region})`);
  const result = await invokeMigrationFunction({
    functionName: database.migrationFunctionName,
    region: app.region,
    command: { action: args.action === 'status' ? 'status' : 'apply', database: database.id },
  });
  if (result.status) printStatus(result.status, out);
  else out(result.applied && result.applied.length > 0 ? `applied ${result.applied.join(', ')} to ${database.id} (${app.stage})` : `database ${database.id} (${app.stage}) is up to date`);
  return 0;
}

/** The database `--db` names, or the app's only one. */
export function pickDatabase(app: AppDefinition, id: string | undefined): DatabaseDefinition {
  const ids = app.databases.map((d) => d.id);
  if (id !== undefined) {
    const found = app.databases.find((d) => d.id === id);
    if (!found) throw new MigrateCommandError('FW_ERR_MIGRATE_NO_DATABASE', `--db ${id}: the app has no database "${id}" (it has: ${ids.join(', ') || 'none'}).`);
    return found;
  }
  if (app.databases.length === 1) return app.databases[0] as DatabaseDefinition;
  if (app.databases.length === 0) {
    throw new MigrateCommandError('FW_ERR_MIGRATE_NO_DATABASE', 'The app declares no database: add infrastructure.databases: [{ id: \'main\' }] to fw.config.ts.');
  }
  throw new MigrateCommandError('FW_ERR_MIGRATE_NO_DATABASE', `The app has ${ids.length} databases (${ids.join(', ')}): say which one with --db <id>.`);
}

function printStatus(status: readonly MigrationStatus[], out: (line: string) => void): void {
  if (status.length === 0) {
    out('no migrations');
    return;
  }
  const rows = status.map((s) => [s.state, s.fileName ?? `${s.version}_${s.name}.sql (file missing)`, s.appliedAt ? new Date(s.appliedAt).toISOString() : '']);
  const width = Math.max(...rows.map((r) => (r[0] as string).length));
  for (const [state, file, at] of rows) out(`${(state as string).padEnd(width)}  ${file}${at ? `  ${at}` : ''}`);
  const pending = status.filter((s) => s.state === 'pending').length;
  out(`${status.length - pending} applied, ${pending} pending`);
}

/** `fw migrate` entry point. */
export async function run(argv: string[]): Promise<number> {
  return runMigrate(argv);
}
