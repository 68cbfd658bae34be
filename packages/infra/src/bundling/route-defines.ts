import { PLAIN_ROUTE_DEFINE } from '@framework/runtime';

/**
 * A route option as a key of the definition (`scopes: [...]`, `{ body, fn }`), or `auth` anywhere (`ctx.auth` is set
 * only by the scope check): the function may need the code of route options. Errs on keeping: a destructured
 * `{ query } = ctx` or a ternary's `body :` count too.
 */
const ROUTE_OPTION = /\b(?:scopes|middleware|body|query|params|headers|response|validateResponse)\s*:|[{,]\s*(?:scopes|middleware|body|query|params|headers|response|validateResponse)\s*[,}]|\bauth\b/;

/**
 * Packages whose code never calls `handler(...)`: a function importing only these (and its own files) gets its
 * routes from its own code, which the analysis reads. Any other package may export a ready route (`@framework-pro/chat`'s
 * handlers declare scopes inside the package), so a function importing one keeps the option code.
 */
export const PLAIN_ROUTE_SAFE_PACKAGES: readonly string[] = ['@framework/runtime', '@framework/core', '@framework/data', '@framework/storage', '@framework/notify', '@framework/integrations', '@framework/auth', 'zod', 'valibot', 'arktype'];

/**
 * esbuild `define`s from what a function's own code declares of a route (`FunctionBundle.projectCode` and
 * `projectPackages`): a function that names no route option besides `fn` and imports only `PLAIN_ROUTE_SAFE_PACKAGES`
 * gets the runtime's `PLAIN_ROUTE_DEFINE`, so its `handler(...)` bundles without the schema checks, the scope check,
 * the API-key hook and the middleware runner. A definition that gets options anyway (a computed key) throws
 * `FW_ERR_ROUTE_OPTIONS_LEFT_OUT` when the bundle loads, which `readHandlerInfo` does at synth: never a changed
 * answer on a request.
 */
export function routeOptionDefines(projectCode: string, projectPackages: ReadonlySet<string> = new Set()): Record<string, string> {
  if (ROUTE_OPTION.test(projectCode)) return {};
  if ([...projectPackages].some((name) => !PLAIN_ROUTE_SAFE_PACKAGES.includes(name))) return {};
  return { [PLAIN_ROUTE_DEFINE]: 'true' };
}
