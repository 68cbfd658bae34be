import { ApiError, errorBodyOf } from './api-error.js';
import type { BodyRouteCall, CallOptions, RouteCall, TokenSource } from './route-call.js';

/** Options of a generated client (`createClient(options)`). */
export interface ClientOptions {
  /** The API's address: `fw dev`'s URL or the deployed stage's API URL (a path prefix is kept). */
  readonly baseUrl: string | URL;
  /**
   * Bearer token of every call: a string, or a function giving the current one (e.g. from your auth library).
   * @default - no `Authorization` header
   */
  readonly token?: TokenSource;
  /**
   * The `fetch` to call (a test's, one with retries, a polyfill).
   * @default globalThis.fetch
   */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Headers sent with every request.
   * @default - none
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a generated client is built on: one function per route method, and the base URL. */
export interface Transport {
  /** A route method without a body, at a path already filled in. */
  call<THandler>(method: string, path: string): RouteCall<THandler>;
  /** A route method with a body. */
  bodyCall<THandler>(method: string, path: string): BodyRouteCall<THandler>;
}

/** A path parameter as one URL segment (`/` and everything else reserved is escaped). */
export function pathSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** A catch-all parameter (`[...path]`): its `/` separate segments, each escaped. */
export function pathSegments(value: string | number): string {
  return String(value).split('/').map(encodeURIComponent).join('/');
}

function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, one instanceof Date ? one.toISOString() : String(one));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

async function tokenOf(source: TokenSource | undefined): Promise<string | undefined> {
  return typeof source === 'function' ? source() : source;
}

/** The fetch wrapper of generated clients: JSON in and out, bearer token, idempotency key, typed errors. */
export function createTransport(options: ClientOptions): Transport {
  const base = String(options.baseUrl).replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
  const fixedHeaders = options.headers ?? {};

  async function send(method: string, path: string, body: unknown, call: CallOptions<unknown> = {}): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', ...fixedHeaders, ...call.headers };
    const token = await tokenOf(call.token ?? options.token);
    if (token) headers.authorization = `Bearer ${token}`;
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    if (call.signal) init.signal = call.signal;
    const response = await doFetch(`${base}${path}${queryString(call.query)}`, init);
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, errorBodyOf(response.status, response.statusText, text, response.headers), response.headers);
    if (response.status === 204 || text === '') return undefined;
    const type = response.headers.get('content-type') ?? '';
    return /[/+]json\b/i.test(type) ? JSON.parse(text) : text;
  }

  return {
    call: <THandler>(method: string, path: string) => ((call?: CallOptions<unknown>) => send(method, path, undefined, call)) as RouteCall<THandler>,
    bodyCall: <THandler>(method: string, path: string) => ((body?: unknown, call?: CallOptions<unknown>) => send(method, path, body, call)) as BodyRouteCall<THandler>,
  };
}
