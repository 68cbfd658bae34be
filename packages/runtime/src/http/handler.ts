import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import { authorize } from '../context/auth.js';
import {
  fallbackRequestId,
  HttpHandlerContext,
  standInLambdaContext,
  type AuthenticatedContext,
  type HandlerContext,
} from '../context/handler-context.js';
import { IDEMPOTENT_MIDDLEWARE, withHandlerInfo, type HandlerInfo } from '../handler-info.js';
import { runMiddleware } from '../middleware/run-middleware.js';
import type { HttpResponse, Middleware, MiddlewareRequest } from '../middleware/types.js';
import { getService, type Service } from '../service/service.js';
import { responseForError } from './error-response.js';
import { parseBody } from './parse-body.js';
import { toHttpResponse } from './response.js';

/** A route's function: `(body, ctx, service)`, returning what becomes the response. */
export type HandlerFn<TBody = unknown, TResult = unknown, TContext extends HandlerContext = HandlerContext> = (
  body: TBody,
  ctx: TContext,
  service: Service,
) => Promise<TResult> | TResult;

export interface HandlerOptions {
  /**
   * Scopes the caller's token must all carry. Absent or empty: the route is public.
   * @default - public
   */
  readonly scopes?: readonly string[];
  /**
   * Middlewares, outermost first (see the README, "Middleware").
   * @default - none
   */
  readonly middleware?: readonly Middleware<HandlerContext>[];
}

/** Options of an authenticated route: at least one scope, so `ctx.auth` is always set. */
export interface ScopedHandlerOptions extends HandlerOptions {
  readonly scopes: readonly [string, ...string[]];
}

export interface HandlerDefinition<TBody = unknown, TResult = unknown> extends HandlerOptions {
  readonly fn: HandlerFn<TBody, TResult>;
}

export interface ScopedHandlerDefinition<TBody = unknown, TResult = unknown> extends ScopedHandlerOptions {
  readonly fn: HandlerFn<TBody, TResult, AuthenticatedContext>;
}

/** The Lambda handler `handler(...)` returns; export it as `main`. */
export type HttpHandler = ((event: APIGatewayProxyEventV2, context?: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2>) & {
  readonly handlerInfo: HandlerInfo;
};

function toResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return response;
}

/**
 * Wraps a route function as an HTTP API (payload 2.0) Lambda handler. The order per request: auth check (401/403),
 * body parse (400 `INVALID_JSON`), middleware `before` hooks, the function, mapping of its return value, `after`
 * hooks; anything thrown becomes the shared error body (see the README's status table).
 */
export function handler<TBody = unknown, TResult = unknown>(definition: ScopedHandlerDefinition<TBody, TResult>): HttpHandler;
export function handler<TBody = unknown, TResult = unknown>(definition: HandlerDefinition<TBody, TResult>): HttpHandler;
export function handler<TBody = unknown, TResult = unknown>(
  fn: HandlerFn<TBody, TResult, AuthenticatedContext>,
  options: ScopedHandlerOptions,
): HttpHandler;
export function handler<TBody = unknown, TResult = unknown>(fn: HandlerFn<TBody, TResult>, options?: HandlerOptions): HttpHandler;
export function handler(
  fnOrDefinition: HandlerFn<unknown, unknown, never> | HandlerDefinition | ScopedHandlerDefinition,
  maybeOptions: HandlerOptions = {},
): HttpHandler {
  const definition: HandlerDefinition =
    typeof fnOrDefinition === 'function'
      ? { ...maybeOptions, fn: fnOrDefinition as HandlerFn }
      : (fnOrDefinition as HandlerDefinition);
  const fn = definition.fn;
  const scopes = Object.freeze([...(definition.scopes ?? [])]);
  const middleware = Object.freeze([...(definition.middleware ?? [])]);

  async function main(event: APIGatewayProxyEventV2, lambdaContext?: LambdaContext): Promise<APIGatewayProxyStructuredResultV2> {
    const startedAt = Date.now();
    const requestId = event.requestContext?.requestId ?? lambdaContext?.awsRequestId ?? fallbackRequestId();
    const context = lambdaContext ?? standInLambdaContext(requestId, startedAt);
    const ctx = new HttpHandlerContext(event, context, requestId, startedAt);
    const service = getService();
    let body: unknown;
    try {
      const auth = authorize(event, scopes);
      if (auth) ctx.auth = auth;
      body = parseBody(event, ctx.headers);
    } catch (error) {
      return toResult(responseForError(error, requestId, () => ctx.logger));
    }

    if (middleware.length === 0) {
      try {
        return toResult(toHttpResponse(await fn(body, ctx, service), ctx.method));
      } catch (error) {
        return toResult(responseForError(error, requestId, () => ctx.logger));
      }
    }

    const request: MiddlewareRequest<HandlerContext> = { event, lambdaContext: context, ctx, body, internal: {} };
    try {
      return toResult(
        await runMiddleware(request, middleware, async (req) => toHttpResponse(await fn(req.body, ctx, service), ctx.method)),
      );
    } catch (error) {
      return toResult(responseForError(error, requestId, () => ctx.logger));
    }
  }

  return withHandlerInfo(main, {
    kind: 'http',
    scopes,
    middleware: Object.freeze(middleware.map((m) => m.name)),
    idempotent: middleware.some((m) => m.name === IDEMPOTENT_MIDDLEWARE),
  });
}
