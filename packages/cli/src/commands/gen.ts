import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV } from '@framework/core';
import { findConfigFile, loadApp } from '../app-loader/index.js';
import { CLIENT_FILE, isGeneratedClient, writeClient } from '../client-gen/index.js';
import { GenerateError } from '../errors.js';

const USAGE = 'fw gen client [--stage <stage>]';

/** `fw gen client`: writes src/client.gen.ts, the typed HTTP client of the app's routes. */
export async function run(argv: string[]): Promise<number> {
  const [kind, ...rest] = argv;
  if (kind !== 'client') {
    throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `${kind === undefined ? 'nothing to generate' : `cannot generate "${kind}"`}: fw gen knows "client". Usage: ${USAGE}`);
  }
  let stage = process.env[ENV.stage] ?? 'dev';
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--stage' && rest[i + 1] !== undefined) stage = rest[++i]!;
    else if (arg.startsWith('--stage=')) stage = arg.slice('--stage='.length);
    else throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `unexpected argument "${arg}". Usage: ${USAGE}`);
  }
  const rootDir = process.cwd();
  if (!findConfigFile(rootDir)) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `no fw.config.ts in ${rootDir}: run fw gen client in the project folder`);
  const absolute = path.join(rootDir, CLIENT_FILE);
  if (fs.existsSync(absolute) && !isGeneratedClient(absolute)) {
    throw new GenerateError('FW_ERR_GENERATE_CLIENT_FILE_EXISTS', `${CLIENT_FILE} exists and fw gen client did not write it; move it away (fw gen client never overwrites your own files)`);
  }
  const app = await loadApp(rootDir, stage);
  const wrote = writeClient(rootDir, app.routes);
  process.stdout.write(`${wrote ? 'wrote' : 'unchanged:'} ${CLIENT_FILE} (${app.routes.length} route${app.routes.length === 1 ? '' : 's'}); import { createClient } from it\n`);
  return 0;
}
