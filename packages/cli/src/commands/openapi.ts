import * as fs from 'node:fs';
import * as path from 'node:path';
import { findConfigFile, loadApp } from '../app-loader/index.js';
import { parseCommandLine, usageError } from '../cli/parse-command-line.js';
import { DevServerError, OpenApiError } from '../errors.js';
import { bundleRoutes, cognitoDomainUrl, DEFAULT_DEV_ORIGIN, generateOpenApi } from '../openapi/index.js';
import { COMMANDS } from './registry.js';

function httpUrl(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OpenApiError('FW_ERR_OPENAPI_BAD_ARGUMENT', `--${option} ${JSON.stringify(value)} is not a URL: pass an absolute http(s) URL such as https://auth.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OpenApiError('FW_ERR_OPENAPI_BAD_ARGUMENT', `--${option} ${value}: expected an http(s) URL, got ${url.protocol}`);
  return value.replace(/\/+$/, '');
}

/**
 * `fw openapi [--stage dev] [--out file] [--auth-url url] [--server-url url]`: compiles the route files, reads what each
 * declares (schemas, scopes) and writes the stage's OpenAPI 3.1 document to `--out` or stdout. What could not be
 * documented (a schema JSON Schema cannot express) is listed on stderr; the document is written anyway.
 */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(COMMANDS.openapi!, argv);
  if (positionals.length) throw usageError('openapi', `unexpected argument "${positionals[0]}" (fw openapi documents the project in the current folder; --out names the file)`);
  const stage = (values.stage as string | undefined) ?? 'dev';
  const out = values.out as string | undefined;
  const authUrl = httpUrl('auth-url', values['auth-url'] as string | undefined);
  const serverUrl = httpUrl('server-url', values['server-url'] as string | undefined);
  const rootDir = process.cwd();
  if (!findConfigFile(rootDir)) throw new DevServerError('FW_ERR_DEV_NO_CONFIG', `no fw.config.ts in ${rootDir}: run fw openapi in the project folder (where fw.config.ts is)`);
  const app = await loadApp(rootDir, stage);
  let authBaseUrl = authUrl ?? cognitoDomainUrl(app);
  if (app.auth && !authBaseUrl) {
    authBaseUrl = DEFAULT_DEV_ORIGIN;
    process.stderr.write(
      `fw openapi: the OAuth URLs point at fw dev's issuer (${DEFAULT_DEV_ORIGIN}): stage ${app.stage}'s Cognito domain gets a suffix when deployed. ` +
        'Pass --auth-url https://<domain> for the deployed one, or set infrastructure.auth.domainPrefix.\n',
    );
  }
  const bundles = await bundleRoutes(app);
  const { document, problems } = await generateOpenApi(app, bundles, { ...(authBaseUrl ? { authBaseUrl } : {}), ...(serverUrl ? { serverUrl } : {}) });
  for (const problem of problems) process.stderr.write(`fw openapi: not fully documented: ${problem}\n`);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  const file = path.resolve(rootDir, out);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new OpenApiError('FW_ERR_OPENAPI_BAD_ARGUMENT', `--out ${out}: cannot write ${file} (${(error as Error).message}); pass a writable file path`, { cause: error });
  }
  process.stderr.write(`fw openapi: ${app.routes.length} routes of ${app.project} (stage ${app.stage}) written to ${path.relative(rootDir, file) || file}\n`);
  return 0;
}
