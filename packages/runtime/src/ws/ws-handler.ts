import type { APIGatewayProxyWebsocketEventV2, Context as LambdaContext } from 'aws-lambda';
import { ENV, WS_ANONYMOUS_CONNECTION } from '@framework/core/names';
import { authInfoOf, grants, type AuthInfo } from '../context/auth.js';
import { fallbackRequestId, standInLambdaContext, type BaseContext } from '../context/handler-context.js';
import { HttpError } from '../errors.js';
import { withHandlerInfo, type HandlerInfo } from '../handler-info.js';
import { getRootLogger, type Logger } from '../logger/logger.js';
import type { AppScope } from '../register/register.js';
import { getService, type Service } from '../service/service.js';
import { forgetConnection, recordConnection } from './registry/connection-lifecycle.js';

/**
 * The WebSocket API's event, as API Gateway hands it to a route's function. On `$connect` it also carries the
 * upgrade request's `headers` and `queryStringParameters`; `requestContext.authorizer` is the context the
 * connection's authorizer returned at `$connect`, repeated on every message of the connection.
 */
export type WsEvent = APIGatewayProxyWebsocketEventV2 & {
  readonly headers?: Record<string, string | undefined>;
  readonly queryStringParameters?: Record<string, string | undefined>;
  readonly requestContext: APIGatewayProxyWebsocketEventV2['requestContext'] & { readonly authorizer?: Record<string, unknown> };
};

/** `ctx` of a WebSocket route (`wsHandler`). */
export interface WsContext extends BaseContext {
  /** The connection the event is about: what `service.ws.send` takes. */
  readonly connectionId: string;
  /** `$connect`, `$disconnect`, `$default` or the action. */
  readonly routeKey: string;
  readonly eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT';
  /** The caller, from the claims verified at `$connect` (the same on every message of the connection). */
  readonly auth?: AuthInfo;
  /** `$connect` only: the upgrade request's headers (lower-case names) and query parameters; empty otherwise. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly rawEvent: WsEvent;
}

/** `ctx` of a WebSocket route declared with scopes: `auth` is always there. */
export interface AuthenticatedWsContext extends WsContext {
  readonly auth: AuthInfo;
}

/**
 * A WebSocket route's function: `(message, ctx, service)`. `message` is the frame's text parsed as JSON (the text
 * itself when it is not JSON, a `Buffer` for a binary frame, `undefined` on `$connect` and `$disconnect`).
 */
export type WsHandlerFn<TMessage = unknown, TContext extends WsContext = WsContext> = (message: TMessage, ctx: TContext, service: Service) => unknown;

export interface WsHandlerOptions {
  /**
   * Scopes the connection's token must all carry. On `$connect` a connection without them is refused (401 without a
   * token, 403 with a token lacking one); on a message route, the message is refused. With the generated
   * `.fw/types` only the scopes declared in `config/security.ts` compile.
   * @default - public
   */
  readonly scopes?: readonly AppScope[];
}

/** What the function gives back to the WebSocket API: a status (a non-2xx on `$connect` refuses the connection). */
export interface WsResult {
  readonly statusCode: number;
  readonly body?: string;
}

/** The Lambda handler `wsHandler(...)` returns; export it as `main`. */
export type WsHandler = ((event: WsEvent, context?: LambdaContext) => Promise<WsResult>) & { readonly handlerInfo: HandlerInfo };

/** Values of the authorizer context that are API Gateway's own, not claims. */
const NOT_CLAIMS = new Set(['principalId', 'integrationLatency', 'fwAnonymous']);

/**
 * The caller from the authorizer context of a WebSocket event: the `$connect` authorizer returns the token's claims
 * as a flat context (values are strings, scopes space-separated in `scope`), which API Gateway repeats on every
 * message of the connection.
 */
export function authFromWsEvent(event: WsEvent): AuthInfo | undefined {
  const authorizer = event.requestContext?.authorizer;
  if (!authorizer || typeof authorizer !== 'object') return undefined;
  // A connection that sent no token to a public `$connect`: no caller (API Gateway's context holds strings).
  if (String(authorizer['fwAnonymous']) === WS_ANONYMOUS_CONNECTION['fwAnonymous']) return undefined;
  const claims: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(authorizer)) if (!NOT_CLAIMS.has(name)) claims[name] = value;
  const subject = claims['sub'] ?? authorizer['principalId'];
  if (typeof subject !== 'string' || subject === '') return undefined;
  const words = (value: unknown) => (typeof value === 'string' ? value.replace(/^\[|\]$/g, '').split(/[\s,]+/).filter(Boolean) : []);
  const scopes = [...new Set([...words(claims['scope']), ...words(claims['scp'])])];
  return authInfoOf(subject, scopes, words(claims['cognito:groups']), claims);
}

function stringMap(input: Record<string, string | undefined> | undefined, lowerCase: boolean): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(input ?? {})) if (value !== undefined) out[lowerCase ? name.toLowerCase() : name] = value;
  return out;
}

function parseMessage(event: WsEvent): unknown {
  if (event.requestContext.eventType !== 'MESSAGE' || event.body === undefined) return undefined;
  if (event.isBase64Encoded) return Buffer.from(event.body, 'base64');
  try {
    return JSON.parse(event.body) as unknown;
  } catch {
    return event.body;
  }
}

/** The answer for a refused or failed event; a 500 never carries the internal message. */
function errorResult(error: unknown, logger: () => Logger, routeKey: string): WsResult {
  if (error instanceof HttpError) return { statusCode: error.status, body: JSON.stringify({ error: { code: error.code, message: error.message } }) };
  logger().error(`WebSocket route ${routeKey} failed`, { error });
  return { statusCode: 500, body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } }) };
}

/**
 * Wraps a WebSocket route's function (`src/ws/$connect.ts`, `$default.ts`, `<action>.ts`) as a Lambda handler of the
 * WebSocket API. Order per event: scope check (401/403; on `$connect` it refuses the connection), message parse, the
 * function. What the function returns is not sent to the client: answer with `service.ws.send(ctx.connectionId, ...)`.
 */
export function wsHandler<TMessage = unknown>(fn: WsHandlerFn<TMessage, AuthenticatedWsContext>, options: { readonly scopes: readonly [AppScope, ...AppScope[]] }): WsHandler;
export function wsHandler<TMessage = unknown>(fn: WsHandlerFn<TMessage>, options?: WsHandlerOptions): WsHandler;
export function wsHandler(fn: WsHandlerFn<unknown, never>, options: WsHandlerOptions = {}): WsHandler {
  const scopes = Object.freeze([...(options.scopes ?? [])]);
  async function main(event: WsEvent, lambdaContext?: LambdaContext): Promise<WsResult> {
    const startedAt = Date.now();
    const { connectionId, routeKey, eventType } = event.requestContext;
    const requestId = event.requestContext.requestId ?? lambdaContext?.awsRequestId ?? fallbackRequestId();
    let logger: Logger | undefined;
    const log = () => (logger ??= getRootLogger().child({ requestId, connectionId }));
    const auth = authFromWsEvent(event);
    if (scopes.length > 0) {
      if (!auth) return { statusCode: 401, body: JSON.stringify({ error: { code: 'UNAUTHORIZED', message: `${routeKey} requires a token (the Authorization header or the token query parameter at connect)` } }) };
      const resourceServer = process.env[ENV.authResourceServer];
      const missing = scopes.filter((s) => !auth.scopes.some((granted) => grants(granted, s, resourceServer)));
      if (missing.length > 0) return { statusCode: 403, body: JSON.stringify({ error: { code: 'INSUFFICIENT_SCOPE', message: `${routeKey} requires the scopes ${missing.join(', ')}` } }) };
    }
    const context = lambdaContext ?? standInLambdaContext(requestId, startedAt);
    const ctx: WsContext = {
      connectionId,
      routeKey,
      eventType: eventType as WsContext['eventType'],
      ...(auth ? { auth } : {}),
      headers: stringMap(event.headers, true),
      query: stringMap(event.queryStringParameters, false),
      rawEvent: event,
      requestId,
      timestamp: new Date(startedAt),
      lambdaContext: context,
      get logger() {
        return log();
      },
      getRemainingTimeInMillis: () => context.getRemainingTimeInMillis(),
    };
    let accepted = false;
    try {
      // `$connect` records the connection before the function runs, so the function may `subscribe` it; a registry
      // that cannot record it refuses the connection (500) rather than open one no `publish` can reach.
      if (eventType === 'CONNECT') await recordConnection(event, auth);
      const result = await (fn as WsHandlerFn)(parseMessage(event), ctx, getService());
      const statusCode = (result as { statusCode?: unknown } | null)?.statusCode;
      const answer: WsResult = typeof statusCode === 'number' ? { statusCode, ...(typeof (result as WsResult).body === 'string' ? { body: (result as WsResult).body } : {}) } : { statusCode: 200 };
      accepted = answer.statusCode >= 200 && answer.statusCode <= 299;
      return answer;
    } catch (error) {
      return errorResult(error, log, routeKey);
    } finally {
      // Whatever `$disconnect` did, the connection is gone; a `$connect` that refused never opened one.
      if (eventType === 'DISCONNECT' || (eventType === 'CONNECT' && !accepted)) await forgetConnection(connectionId, log);
    }
  }
  return withHandlerInfo(main, { kind: 'ws', scopes, middleware: [] });
}
