import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import type { AuthMethod } from '../context/api-key-auth.js';
import { authMethods } from '../context/auth-methods-hook.js';
import { authorize } from '../context/auth.js';
import { runInTenantScope } from '../context/tenant.js';
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
import type { AppScope } from '../register/register.js';
import { getService, type Service } from '../service/service.js';
import { ENV, ROUTE_SCHEMA_PARTS, ROUTE_SCHEMAS_KEY } from '@framework/core/names';
import { responseForError } from './error-response.js';
import { parseBody } from './parse-body.js';
import { plainRoute } from './plain-route.js';
import { isExplicitResponse, toHttpResponse, type ExplicitResponse } from './response.js';
import {
  checkResponse,
  checkResponseByStatus,
  isStandardSchema,
  requestValidator,
  responseSchemaMap,
  statusAndBodyOf,
  type RequestInput,
  type ResponseSchemaMap,
  type ResponseSchemas,
  type RouteSchemas,
  type SchemaInput,
  type SchemaOutput,
} from './schemas/request-schemas.js';
import type { StandardSchemaV1 } from './schemas/standard-schema.js';
import type { DeclaredResult, ResultOf, RouteTypes } from './route-types.js';

/** A route's function: `(body, ctx, service)`, returning what becomes the response. */
export type HandlerFn<TBody = unknown, TResult = unknown, TContext extends HandlerContext = HandlerContext> = (
  body: TBody,
  ctx: TContext,
  service: Service,
) => Promise<TResult> | TResult;

export interface HandlerOptions {
  /**
   * Scopes the caller's token must all carry. Absent or empty: the route is public. With the generated `.fw/types`
   * only the scopes declared in `config/security.ts` compile.
   * @default - public
   */
  readonly scopes?: readonly AppScope[];
  /**
   * How callers may authenticate: `['jwt', 'apiKey']` accepts an access token or one of the app's API keys
   * (`Authorization: Bearer sk_...`; `X-API-Key` only where the deployed authorizer runs uncached), with `ctx.auth`
   * filled the same way (`ctx.auth.method` says which). A route that accepts `apiKey` always requires one of them, scopes or not. The key check is registered by
   * `createApiKeys` of `@framework/integrations` (so routes without keys do not carry its code).
   * @default ['jwt']
   */
  readonly auth?: readonly [AuthMethod, ...AuthMethod[]];
  /**
   * Middlewares, outermost first (see the README, "Middleware").
   * @default - none
   */
  readonly middleware?: readonly Middleware<HandlerContext>[];
}

/** Options of an authenticated route: at least one scope, so `ctx.auth` is always set. */
export interface ScopedHandlerOptions extends HandlerOptions {
  readonly scopes: readonly [AppScope, ...AppScope[]];
}

/** A definition without schemas; the `never` fields send one with schemas to the schema overloads' inference. */
interface WithoutSchemas {
  readonly body?: never;
  readonly query?: never;
  readonly params?: never;
  readonly headers?: never;
  readonly response?: never;
}

export interface HandlerDefinition<TBody = unknown, TResult = unknown> extends HandlerOptions, WithoutSchemas {
  readonly fn: HandlerFn<TBody, TResult>;
}

export interface ScopedHandlerDefinition<TBody = unknown, TResult = unknown> extends ScopedHandlerOptions, WithoutSchemas {
  readonly fn: HandlerFn<TBody, TResult, AuthenticatedContext>;
}

/** Options of a route that declares schemas. */
export interface SchemaHandlerOptions extends HandlerOptions, RouteSchemas {
  /**
   * Check the return value against `response`: `true` always, `false` never.
   * @default - when the variable `FW_VALIDATE_RESPONSES` is `1` or `true` (`fw dev` sets it; deployed functions do not get it)
   */
  readonly validateResponse?: boolean;
}

/** `ctx` of a route with schemas: `ctx.input` holds the parsed, typed request parts. */
export type ValidatedContext<TContext extends HandlerContext, TInput extends RequestInput<unknown, unknown, unknown, unknown>> = TContext & { readonly input: TInput };

type Schema = StandardSchemaV1 | undefined;

type ResponseSchema = ResponseSchemas | undefined;

/** The statuses a plain return value gets (201 for POST, 200 otherwise); the string forms for mapped key types. */
type AutomaticStatus = 200 | 201 | '200' | '201';

/** The input types of the schemas a response map declares for the automatic statuses (`never` when it declares none). */
type AutomaticInput<M> = { [K in keyof M & AutomaticStatus]: SchemaInput<M[K], never> }[keyof M & AutomaticStatus];

/**
 * What `fn` may return when a `response` schema is declared: a value of its input type, or any `response(...)`. With
 * a map by status, a plain value is one of the 200/201 schemas' input types (other statuses go through `response(...)`).
 */
type ReturnOf<R extends ResponseSchema> =
  | (R extends StandardSchemaV1 ? StandardSchemaV1.InferInput<R> : R extends ResponseSchemaMap ? AutomaticInput<R> : unknown)
  | ExplicitResponse
  | undefined;

type InputOf<B extends Schema, Q extends Schema, P extends Schema, H extends Schema> = RequestInput<
  SchemaOutput<B, unknown>,
  SchemaOutput<Q, Readonly<Record<string, string>>>,
  SchemaOutput<P, Readonly<Record<string, string>>>,
  SchemaOutput<H, Readonly<Record<string, string>>>
>;

/** `handler({ body?, query?, params?, headers?, response?, fn, ...options })` with at least one scope. */
export interface ScopedSchemaHandlerDefinition<B extends Schema, Q extends Schema, P extends Schema, H extends Schema, R extends ResponseSchema, T extends ReturnOf<R> = ReturnOf<R>> extends SchemaHandlerOptions {
  readonly scopes: readonly [AppScope, ...AppScope[]];
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  readonly headers?: H;
  readonly response?: R;
  readonly fn: (
    body: SchemaOutput<B, unknown>,
    ctx: ValidatedContext<AuthenticatedContext, InputOf<B, Q, P, H>>,
    service: Service,
  ) => Promise<T> | T;
}

/** `handler({ body?, query?, params?, headers?, response?, fn, ...options })`. */
export interface SchemaHandlerDefinition<B extends Schema, Q extends Schema, P extends Schema, H extends Schema, R extends ResponseSchema, T extends ReturnOf<R> = ReturnOf<R>> extends SchemaHandlerOptions {
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  readonly headers?: H;
  readonly response?: R;
  readonly fn: (body: SchemaOutput<B, unknown>, ctx: ValidatedContext<HandlerContext, InputOf<B, Q, P, H>>, service: Service) => Promise<T> | T;
}

function responseValidationOn(option: boolean | undefined): boolean {
  if (option !== undefined) return option;
  const value = process.env[ENV.validateResponses];
  return value === '1' || value === 'true';
}

/**
 * The Lambda handler `handler(...)` returns; export it as `main`. `T` is what its callers send and get back, for the
 * generated client (a type only: the property is never set).
 */
export type HttpHandler<T extends RouteTypes = RouteTypes> = ((event: APIGatewayProxyEventV2, context?: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2>) & {
  readonly handlerInfo: HandlerInfo;
  readonly '~route'?: T;
};

/** The route types of a route that declares schemas. */
type SchemaRouteTypes<B extends Schema, Q extends Schema, P extends Schema, R extends ResponseSchema, T> = RouteTypes<
  SchemaInput<B, unknown>,
  SchemaInput<Q, Readonly<Record<string, string>>>,
  SchemaInput<P, Readonly<Record<string, string>>>,
  R extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<R> : R extends ResponseSchemaMap ? DeclaredResult<R> : ResultOf<T>
>;

/** The route types of a route without schemas. */
type PlainRouteTypes<TBody, TResult> = RouteTypes<TBody, Readonly<Record<string, string>>, Readonly<Record<string, string>>, ResultOf<TResult>>;

function toResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return response;
}

/**
 * Wraps a route function as an HTTP API (payload 2.0) Lambda handler. The order per request: auth check (401/403),
 * body parse (400 `INVALID_JSON`), schemas (400 `VALIDATION_FAILED`), middleware `before` hooks, the function, mapping of its return value, `after`
 * hooks; anything thrown becomes the shared error body (see the README's status table).
 */
export function handler<TBody = unknown, TResult = unknown>(definition: ScopedHandlerDefinition<TBody, TResult>): HttpHandler<PlainRouteTypes<TBody, TResult>>;
export function handler<TBody = unknown, TResult = unknown>(definition: HandlerDefinition<TBody, TResult>): HttpHandler<PlainRouteTypes<TBody, TResult>>;
export function handler<TBody = unknown, TResult = unknown>(
  fn: HandlerFn<TBody, TResult, AuthenticatedContext>,
  options: ScopedHandlerOptions,
): HttpHandler<PlainRouteTypes<TBody, TResult>>;
export function handler<TBody = unknown, TResult = unknown>(fn: HandlerFn<TBody, TResult>, options?: HandlerOptions): HttpHandler<PlainRouteTypes<TBody, TResult>>;
export function handler<
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
  H extends Schema = undefined,
  R extends ResponseSchema = undefined,
  T extends ReturnOf<R> = ReturnOf<R>,
>(definition: ScopedSchemaHandlerDefinition<B, Q, P, H, R, T>): HttpHandler<SchemaRouteTypes<B, Q, P, R, T>>;
export function handler<
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Schema = undefined,
  H extends Schema = undefined,
  R extends ResponseSchema = undefined,
  T extends ReturnOf<R> = ReturnOf<R>,
>(definition: SchemaHandlerDefinition<B, Q, P, H, R, T>): HttpHandler<SchemaRouteTypes<B, Q, P, R, T>>;
export function handler(
  fnOrDefinition: HandlerFn<unknown, unknown, never> | HandlerDefinition | ScopedHandlerDefinition | (SchemaHandlerOptions & { readonly fn: (...args: never[]) => unknown }),
  maybeOptions: HandlerOptions = {},
): HttpHandler {
  const definition: HandlerDefinition & SchemaHandlerOptions =
    typeof fnOrDefinition === 'function'
      ? { ...maybeOptions, fn: fnOrDefinition as HandlerFn }
      : (fnOrDefinition as HandlerDefinition & SchemaHandlerOptions);
  // if/else, not an early return: esbuild drops the branch a `define` makes dead, with what only it imports.
  if (globalThis.__fwPlainRoute) {
    // The info `routeWithOptions` gives a route without options.
    const none = Object.freeze([]);
    return withHandlerInfo(plainRoute(definition as unknown as Readonly<Record<string, unknown>>, definition.fn), { kind: 'http', scopes: none, middleware: none, idempotent: false });
  } else {
    return routeWithOptions(definition);
  }
}

/** `handler(...)` of a route that may declare schemas, scopes, `auth` methods and middleware. */
function routeWithOptions(definition: HandlerDefinition & SchemaHandlerOptions): HttpHandler {
  const validate = requestValidator(definition);
  const responseSchema = definition.response;
  const validateResponse = definition.validateResponse;
  const userFn = definition.fn;
  const byStatus = responseSchema === undefined || isStandardSchema(responseSchema) ? undefined : responseSchemaMap(responseSchema);
  // A response schema wraps fn once here, so routes without one pay nothing per request.
  const fn: HandlerFn =
    responseSchema === undefined
      ? userFn
      : byStatus
        ? async (body, ctx, service) => {
            const result = await userFn(body, ctx, service);
            // Per status: the schema of the status the answer will have, `response(...)` answers included.
            if (responseValidationOn(validateResponse)) {
              const sent = statusAndBodyOf(result, ctx.method);
              await checkResponseByStatus(byStatus, sent.status, sent.body);
            }
            return result;
          }
        : async (body, ctx, service) => {
            const result = await userFn(body, ctx, service);
            // `response(...)` values are the author's explicit answers (any status, any body type): not checked.
            if (!isExplicitResponse(result) && responseValidationOn(validateResponse)) await checkResponse(responseSchema as StandardSchemaV1, result);
            return result;
          };
  const scopes = Object.freeze([...(definition.scopes ?? [])]);
  const methods = definition.auth && Object.freeze([...definition.auth]);
  const middleware = Object.freeze([...(definition.middleware ?? [])]);

  async function main(event: APIGatewayProxyEventV2, lambdaContext?: LambdaContext): Promise<APIGatewayProxyStructuredResultV2> {
    const startedAt = Date.now();
    // In a Lambda bundle (`LAMBDA_BUNDLE_DEFINE`) Lambda's context is always there: no stand-in code.
    const requestId = event.requestContext?.requestId ?? (globalThis.__fwLambdaBundle ? lambdaContext!.awsRequestId : (lambdaContext?.awsRequestId ?? fallbackRequestId()));
    const context = globalThis.__fwLambdaBundle ? lambdaContext! : (lambdaContext ?? standInLambdaContext(requestId, startedAt));
    const ctx = new HttpHandlerContext(event, context, requestId, startedAt);
    const service = getService();
    let body: unknown;
    try {
      const auth = methods?.includes('apiKey') ? await authMethods()(event, ctx.headers, methods, scopes) : authorize(event, scopes);
      if (auth) ctx.auth = auth;
      body = parseBody(event, ctx.headers);
      if (validate) {
        let input = validate({ body, query: ctx.query, params: ctx.pathParams, headers: ctx.headers });
        if (input instanceof Promise) input = await input;
        body = input.body;
        (ctx as { input?: unknown }).input = input;
      }
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
      // A tenant scope per request, so a middleware can resolve the tenant for everything the route then calls
      // (`currentTenant()`); only routes with middleware can have one, so the others skip it.
      return toResult(
        await runInTenantScope(() => runMiddleware(request, middleware, async (req) => toHttpResponse(await fn(req.body, ctx, service), ctx.method))),
      );
    } catch (error) {
      return toResult(responseForError(error, requestId, () => ctx.logger));
    }
  }

  // The schemas stay readable on `main` for `fw openapi` (a symbol core names; not part of the handler's info).
  const declared = Object.fromEntries(ROUTE_SCHEMA_PARTS.filter((part) => definition[part] !== undefined).map((part) => [part, definition[part]]));
  if (Object.keys(declared).length > 0) Object.defineProperty(main, Symbol.for(ROUTE_SCHEMAS_KEY), { value: Object.freeze(declared), enumerable: false });

  return withHandlerInfo(main, {
    kind: 'http',
    scopes,
    middleware: Object.freeze(middleware.map((m) => m.name)),
    idempotent: middleware.some((m) => m.name === IDEMPOTENT_MIDDLEWARE),
    ...(methods !== undefined ? { auth: methods } : {}),
  });
}
