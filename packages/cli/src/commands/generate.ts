import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV, HTTP_METHODS, segmentToPath } from '@framework/core';
import { GenerateError } from '../errors.js';
import { findConfigFile, loadApp } from '../app-loader/index.js';

const USAGE = 'fw g route "<path>" -m <method> [--scopes <scope>[,<scope>...]]   e.g. fw g route "tasks/[id]" -m put --scopes tasks:write';

interface RouteArguments {
  readonly path: string;
  readonly method: string;
  readonly scopes: readonly string[];
  readonly stage: string;
}

function parse(argv: readonly string[]): RouteArguments {
  const [kind, ...rest] = argv;
  if (kind !== 'route') {
    throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `${kind === undefined ? 'nothing to generate' : `cannot generate "${kind}"`}: fw g knows "route". Usage: ${USAGE}`);
  }
  let routePath: string | undefined;
  let method: string | undefined;
  let stage = process.env[ENV.stage] ?? 'dev';
  const scopes: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined || v.startsWith('-')) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `${arg} needs a value. Usage: ${USAGE}`);
      return v;
    };
    if (arg === '-m' || arg === '--method') method = value();
    else if (arg === '--scopes' || arg === '--scope' || arg === '-s') scopes.push(...value().split(/[\s,]+/).filter(Boolean));
    else if (arg === '--stage') stage = value();
    else if (arg.startsWith('-')) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `unknown option ${arg}. Usage: ${USAGE}`);
    else if (routePath === undefined) routePath = arg;
    else throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `unexpected argument "${arg}" (quote a path with brackets: "tasks/[id]"). Usage: ${USAGE}`);
  }
  if (routePath === undefined) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `the route path is missing. Usage: ${USAGE}`);
  if (method === undefined) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `the method is missing (-m ${HTTP_METHODS.join('|')}). Usage: ${USAGE}`);
  return { path: routePath, method, scopes, stage };
}

/** `src/routes/<segments>/<method>.ts` and the gateway path for a `fw g route` path, or a GenerateError. */
export function routeFileFor(routePath: string, method: string, routesDir: string): { file: string; gatewayPath: string; params: string[] } {
  const lower = method.toLowerCase();
  if (!(HTTP_METHODS as readonly string[]).includes(lower)) {
    throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `"${method}" is not an HTTP method; use one of ${HTTP_METHODS.join(', ')}`);
  }
  const segments = routePath.replace(/^\/+|\/+$/g, '').split('/').filter((s, i, all) => s !== '' || all.length === 1).filter(Boolean);
  const gateway: string[] = [];
  const params: string[] = [];
  segments.forEach((segment, index) => {
    if (segment === '.' || segment === '..') throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `path "${routePath}": "${segment}" is not a path segment`);
    const result = segmentToPath(segment, index === segments.length - 1);
    if ('error' in result) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `path "${routePath}": ${result.error}`);
    if (result.param) {
      if (params.includes(result.param)) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `path "${routePath}": parameter "${result.param}" appears twice`);
      params.push(result.param);
    }
    gateway.push(result.segment);
  });
  if (routePath.includes('//')) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `path "${routePath}" has an empty segment ("//")`);
  return { file: [routesDir, ...segments, `${lower}.ts`].join('/'), gatewayPath: `/${gateway.join('/')}`, params };
}

/** The text of a new route file. */
export function routeTemplate(method: string, gatewayPath: string, params: readonly string[], scopes: readonly string[]): string {
  const upper = method.toUpperCase();
  const returns = params.length ? `{ ${params.map((p) => `${p}: ctx.pathParams.${p}`).join(', ')} }` : upper === 'GET' ? '{ ok: true }' : 'body';
  const options = scopes.length ? `,\n  { scopes: [${scopes.map((s) => `'${s}'`).join(', ')}] },` : ',';
  const guard = scopes.length ? `Requires ${scopes.length > 1 ? 'the scopes' : 'the scope'} ${scopes.join(', ')}.` : 'Public.';
  return `import { handler } from '@framework/runtime';

/** ${upper} ${gatewayPath}. ${guard} */
export const main = handler(
  async (body, ctx) => {
    ctx.logger.info('${upper} ${gatewayPath}', { body });
    return ${returns};
  }${options}
);
`;
}

/** `fw g route "<path>" -m <method> --scopes <scope>`: writes one route file; never overwrites. */
export async function run(argv: string[]): Promise<number> {
  const args = parse(argv);
  const rootDir = process.cwd();
  if (!findConfigFile(rootDir)) throw new GenerateError('FW_ERR_GENERATE_BAD_ARGUMENT', `no fw.config.ts in ${rootDir}: run fw g in the project folder`);
  const app = await loadApp(rootDir, args.stage);
  const { file, gatewayPath, params } = routeFileFor(args.path, args.method, app.directories.routes);
  const declared = app.config.security.scopes;
  const undeclared = args.scopes.filter((s) => !(s in declared));
  if (undeclared.length) {
    throw new GenerateError(
      'FW_ERR_GENERATE_UNDECLARED_SCOPE',
      `scope${undeclared.length > 1 ? 's' : ''} ${undeclared.join(', ')} not declared in config/security.ts (declared: ${Object.keys(declared).join(', ') || 'none'}); add ${undeclared.length > 1 ? 'them' : 'it'} to "scopes" first`,
    );
  }
  const routeKey = `${args.method.toUpperCase()} ${gatewayPath}`;
  const existing = app.routes.find((r) => r.routeKey === routeKey);
  const absolute = path.join(rootDir, file);
  if (existing || fs.existsSync(absolute)) {
    throw new GenerateError('FW_ERR_GENERATE_EXISTS', `${existing?.file ?? file} already defines ${routeKey}; fw g never overwrites (edit that file, or delete it first)`);
  }
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, routeTemplate(args.method, gatewayPath, params, args.scopes), { flag: 'wx' });
  process.stdout.write(`created ${file}: ${routeKey} (${args.scopes.length ? `scopes ${args.scopes.join(', ')}` : 'public'})\n`);
  return 0;
}
