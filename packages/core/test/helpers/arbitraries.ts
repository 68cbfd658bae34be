import fc from 'fast-check';
import { HTTP_METHODS, INTENT_ID, PROJECT_NAME, STAGE_NAME } from '../../src/index.js';

/** Any valid project name, stage name and intent id, up to their length limits. */
export const projectName = fc.stringMatching(PROJECT_NAME);
export const stageName = fc.stringMatching(STAGE_NAME);
export const intentId = fc.stringMatching(INTENT_ID);
/** A standalone function id: one to four segments, like `reports/daily`. */
export const functionId = fc.array(intentId, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
export const httpMethod = fc.constantFrom(...HTTP_METHODS);

/** A folder of a route path: a literal (never `_`/`.`-prefixed: discovery skips those), or a `[param]`. */
// A folder named like a handler file (`get.ts`) could not sit beside that file, so such names are left out.
const literal = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._~-]{0,20}$/).filter((s) => !/\.m?[jt]s$/.test(s));
const paramName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);

export interface RouteSpec {
  readonly folders: readonly string[];
  readonly method: (typeof HTTP_METHODS)[number];
}

/** A route file `<folders>/<method>.ts`: literals and params, params unique in a path, an optional catch-all last. */
export const routeSpec: fc.Arbitrary<RouteSpec> = fc
  .tuple(
    fc.array(fc.oneof({ weight: 3, arbitrary: literal.map((s) => ({ literal: s })) }, { weight: 1, arbitrary: paramName.map((p) => ({ param: p })) }), { maxLength: 6 }),
    fc.option(paramName, { nil: undefined }),
    httpMethod,
  )
  .map(([parts, catchAll, method]) => {
    const used = new Set<string>();
    const folders = parts.map((part, index) => {
      if ('literal' in part) return part.literal;
      // Parameter names must differ within one path: suffix repeats with their position.
      const name = used.has(part.param) ? `${part.param}${index}` : part.param;
      used.add(name);
      return `[${name}]`;
    });
    if (catchAll !== undefined) folders.push(`[...${used.has(catchAll) ? `${catchAll}_rest` : catchAll}]`);
    return { folders, method };
  });

/** The gateway path a route file maps to: `[id]` → `{id}`, `[...rest]` → `{rest+}`. */
export function expectedPath(folders: readonly string[]): string {
  return `/${folders.map((f) => f.replace(/^\[\.\.\.(.+)\]$/, '{$1+}').replace(/^\[(.+)\]$/, '{$1}')).join('/')}`;
}

/** What the gateway treats as one route: the method and the path with parameter names erased. */
export function routeShape(spec: RouteSpec): string {
  return `${spec.method} ${expectedPath(spec.folders).replace(/\{[^}+]+(\+?)\}/g, '{$1}')}`;
}
