import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Database, DevServerNotRunningError, type Queryable } from '@framework/data';
import { parseCommandLine } from '../cli/parse-command-line.js';
import { loadApp } from '../app-loader/index.js';
import { readStateFile, stateFilePath } from '../dev/state-file.js';
import { TenancyCommandError } from '../errors.js';
import { pickDatabase } from './migrate.js';
import { COMMANDS } from './registry.js';

/** What `fw tenancy check` needs of the project's `@framework-pro/tenancy`. */
interface TenancyModule {
  checkTenancy(db: Queryable): Promise<{ subject: string; problem: string; fix: string }[]>;
}

export interface TenancyCommandOptions {
  /** The project folder. @default process.cwd() */
  readonly cwd?: string;
  readonly out?: (line: string) => void;
}

/**
 * The project's own `@framework-pro/tenancy` (the cli depends on no pro package, and the check must be the one the
 * app's version ships).
 */
async function projectTenancy(rootDir: string): Promise<TenancyModule> {
  let resolved: string;
  try {
    resolved = createRequire(path.join(rootDir, 'package.json')).resolve('@framework-pro/tenancy');
  } catch (error) {
    throw new TenancyCommandError('FW_ERR_TENANCY_COMMAND_NOT_INSTALLED', `${rootDir} does not depend on @framework-pro/tenancy: run npm install @framework-pro/tenancy there (fw tenancy check runs the project's own copy).`, { cause: error });
  }
  return (await import(pathToFileURL(resolved).href)) as TenancyModule;
}

/**
 * `fw tenancy check`: runs the project's `checkTenancy` against the database of the running `fw dev` (the connection
 * from `.fw/dev/state.json`, as `fw migrate` does), prints every problem with its fix, and exits 1 when there is one,
 * so CI can gate on it.
 */
export async function runTenancy(argv: readonly string[], options: TenancyCommandOptions = {}): Promise<number> {
  const rootDir = path.resolve(options.cwd ?? process.cwd());
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { positionals, values } = parseCommandLine(COMMANDS.tenancy!, [...argv]);
  if (positionals[0] !== 'check' || positionals.length > 1) {
    throw new TenancyCommandError('FW_ERR_TENANCY_COMMAND_BAD_ARGUMENT', `expected "fw tenancy check [--db <id>]", got "fw tenancy ${positionals.join(' ')}"`);
  }
  const dataDir = path.join(rootDir, '.fw');
  const state = readStateFile(dataDir);
  if (!state) {
    throw new DevServerNotRunningError(`fw dev is not running for ${rootDir} (no ${path.relative(rootDir, stateFilePath(dataDir))} of a live process). Start it with \`fw dev\` (it applies the migrations), then run fw tenancy check again.`);
  }
  const tenancy = await projectTenancy(rootDir);
  const app = await loadApp(rootDir, state.stage);
  const database = pickDatabase(app, typeof values['db'] === 'string' ? values['db'] : undefined);
  const db = new Database({ databaseId: database.id, env: state.env, maxConnections: 1, logger: { warn: (message) => out(`warning: ${message}`) } });
  try {
    const problems = await tenancy.checkTenancy(db);
    for (const p of problems) out(`${p.subject}: ${p.problem} Fix: ${p.fix}`);
    out(problems.length === 0 ? `database ${database.id}: every table with tenant_id is isolated by row-level security` : `database ${database.id}: ${problems.length} problem(s)`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    await db.end();
  }
}

/** `fw tenancy` entry point. */
export async function run(argv: string[]): Promise<number> {
  return runTenancy(argv);
}
