import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import { fallbackRequestId, HttpHandlerContext, standInLambdaContext, type HandlerContext } from '../context/handler-context.js';
import { RuntimeError } from '../errors.js';
import { getService, type Service } from '../service/service.js';
import { responseForError } from './error-response.js';
import { parseBody } from './parse-body.js';
import { toHttpResponse } from './response.js';

/**
 * The esbuild `define` `@framework/infra` gives a function whose own code declares none of a route's options besides
 * `fn` (`routeOptionDefines` there reads the code). With `true` in its place `handler(...)` builds the plain route
 * below, and dead-code elimination drops what only options need: the schema checks, the scope check and claims
 * reading, the API-key hook, the middleware runner and their errors (about 5 KB of the minimal route's 16). Unbundled
 * code (`fw dev`, tests) never sets it.
 */
export const PLAIN_ROUTE_DEFINE = 'globalThis.__fwPlainRoute';

declare global {
  // eslint-disable-next-line no-var
  var __fwPlainRoute: boolean | undefined;
}

/** The options a plain route must not declare (each needs code the plain bundle left out). */
const ROUTE_OPTIONS = ['scopes', 'auth', 'middleware', 'body', 'query', 'params', 'headers', 'response', 'validateResponse'] as const;

/** An option left unset, or set to an empty list (no scopes, no middleware): what a plain route may have. */
function unset(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

/**
 * The route of a plain bundle: parse the body, call `fn`, map its return value or error, as `handler` does for a route
 * without options. A definition that declares options anyway (from a package or a computed key, which the code
 * analysis cannot see) fails when the module loads, so at `fw synth` (which loads every bundle) and never on a request.
 * `ctx.auth` stays unset: a route without scopes has no authorizer deployed, so its events carry no claims.
 */
export function plainRoute(
  definition: Readonly<Record<string, unknown>>,
  fn: (body: unknown, ctx: HandlerContext, service: Service) => unknown,
): (event: APIGatewayProxyEventV2, lambdaContext?: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2> {
  const declared = ROUTE_OPTIONS.filter((option) => !unset(definition[option]));
  if (declared.length > 0) {
    throw new RuntimeError('FW_ERR_ROUTE_OPTIONS_LEFT_OUT', `handler() declares ${declared.join(', ')}, which the route's own files never name, so it was bundled without route options. Write them in the route's file, then synthesize again.`);
  }
  return async (event, lambdaContext) => {
    const startedAt = Date.now();
    // In a Lambda bundle (`LAMBDA_BUNDLE_DEFINE`) Lambda's context is always there: no stand-in code.
    const requestId = event.requestContext?.requestId ?? (globalThis.__fwLambdaBundle ? lambdaContext!.awsRequestId : (lambdaContext?.awsRequestId ?? fallbackRequestId()));
    const ctx = new HttpHandlerContext(event, globalThis.__fwLambdaBundle ? lambdaContext! : (lambdaContext ?? standInLambdaContext(requestId, startedAt)), requestId, startedAt);
    try {
      return toHttpResponse(await fn(parseBody(event, ctx.headers), ctx, getService()), ctx.method);
    } catch (error) {
      return responseForError(error, requestId, () => ctx.logger);
    }
  };
}
