import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';

/**
 * The middleware contract (Middy's onion): `before` hooks run in array order, then the handler, then `after` hooks in
 * reverse order; when the handler or a hook throws, `onError` hooks run in reverse order. A `before` hook that
 * returns a response ends the request early: the handler and the remaining `before` hooks are skipped, and the
 * `after` hooks of the middlewares that already ran still see the response.
 *
 * The runtime owns the implementation (`run-middleware.ts`); this file is the shared contract other features
 * (idempotency, data, storage) are written against.
 */

/** The HTTP response a route produces, already in the gateway's (payload 2.0) structured shape. */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Serialized body ('' for none). */
  body: string;
  isBase64Encoded?: boolean;
  cookies?: string[];
}

/** What a middleware sees and may change. */
export interface MiddlewareRequest<TContext = unknown> {
  /** The raw gateway event. */
  readonly event: APIGatewayProxyEventV2;
  /** The Lambda context (remaining time, request id). */
  readonly lambdaContext: LambdaContext;
  /** The handler context (`ctx`) the handler will receive. */
  readonly ctx: TContext;
  /** The parsed request body (JSON parsed, base64 decoded); middleware may replace it before the handler runs. */
  body: unknown;
  /** The response, once the handler (or an early return) produced one; `after` hooks may replace it. */
  response?: HttpResponse;
  /** The error being handled, in `onError` hooks; set `response` to handle it, leave it to let it propagate. */
  error?: unknown;
  /** Per-request scratch space for middleware, keyed by middleware name. */
  readonly internal: Record<string, unknown>;
}

export interface Middleware<TContext = unknown> {
  /** Shown in logs and errors. */
  readonly name: string;
  /** Return a response to end the request early. */
  before?(request: MiddlewareRequest<TContext>): Promise<HttpResponse | void> | HttpResponse | void;
  after?(request: MiddlewareRequest<TContext>): Promise<void> | void;
  onError?(request: MiddlewareRequest<TContext>): Promise<void> | void;
}
