import type { RouteTypesOf } from '../../http/route-types.js';

/** The body a route accepts (`typeof main` of its file). */
export type RouteBody<THandler> = RouteTypesOf<THandler>['body'];
/** The query parameters a route accepts. */
export type RouteQuery<THandler> = RouteTypesOf<THandler>['query'];
/** What a route answers with (`undefined` for a 204). */
export type RouteResult<THandler> = RouteTypesOf<THandler>['result'];

/** A bearer token, or a function giving the current one (called before every request; may refresh it). */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

/** Options of one call. */
export interface CallOptions<TQuery = Readonly<Record<string, unknown>>> {
  /**
   * Query parameters; `undefined` values are left out, arrays repeat the parameter.
   * @default - none
   */
  readonly query?: TQuery;
  /**
   * Sent as the `Idempotency-Key` header: a retry with the same key gets the first answer back.
   * @default - none
   */
  readonly idempotencyKey?: string;
  /**
   * This call's bearer token, instead of the client's.
   * @default - the client's `token`
   */
  readonly token?: TokenSource;
  /**
   * More request headers.
   * @default - none
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Aborts the request.
   * @default - none
   */
  readonly signal?: AbortSignal;
}

/** A method of a route without a request body (GET, DELETE, HEAD, OPTIONS). */
export type RouteCall<THandler> = (options?: CallOptions<RouteQuery<THandler>>) => Promise<RouteResult<THandler>>;

/** A method of a route with a request body (POST, PUT, PATCH): the body is optional when the route accepts none. */
export type BodyRouteCall<THandler> = (
  ...args: undefined extends RouteBody<THandler>
    ? [body?: RouteBody<THandler>, options?: CallOptions<RouteQuery<THandler>>]
    : [body: RouteBody<THandler>, options?: CallOptions<RouteQuery<THandler>>]
) => Promise<RouteResult<THandler>>;
