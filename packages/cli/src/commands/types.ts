import { parseCommandLine, usageError } from '../cli/parse-command-line.js';
import { loadCloudApp } from '../cloud/load-cloud-app.js';
import { APP_TYPES_FILE, writeAppTypes } from '../types/index.js';
import { COMMANDS } from './registry.js';

/**
 * `fw types [--stage dev]`: writes `.fw/types/app.d.ts` from the app model (what `fw dev`, `fw synth` and
 * `npx projen` also do), for a type check on a fresh clone: `fw types && tsc --noEmit`.
 */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(COMMANDS.types!, argv);
  if (positionals.length) throw usageError('types', `unexpected argument "${positionals[0]}" (fw types reads the project in the current folder)`);
  const stage = (values.stage as string | undefined) ?? 'dev';
  const rootDir = process.cwd();
  const app = await loadCloudApp(rootDir, stage);
  const changed = writeAppTypes(rootDir, app);
  process.stdout.write(`${APP_TYPES_FILE} ${changed ? 'written' : 'unchanged'} (${app.queues.length} queues, ${app.functions.length} functions, ${app.storage.length} buckets, ${app.databases.length} databases, ${Object.keys(app.config.security.scopes).length} scopes)\n`);
  return 0;
}
