import type { HttpResponse } from '../middleware/types.js';
import { JSON_TYPE } from './content-type.js';

/** What `response(...)` takes. */
export interface ResponseInit {
  /**
   * @default 200
   */
  readonly statusCode?: number;
  /**
   * Response headers.
   * @default - `content-type` chosen from the body (JSON, text or binary)
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A string is sent as is (`text/plain` unless you set a content type), a `Buffer`/`Uint8Array` as binary
   * (base64 for the gateway, `application/octet-stream` by default), `undefined` as no body, anything else as JSON.
   * @default - no body
   */
  readonly body?: unknown;
  /**
   * `Set-Cookie` values.
   * @default - none
   */
  readonly cookies?: readonly string[];
}

/** Marks a value built by `response()`, so a returned object that merely has a `statusCode` field stays data. */
const RESPONSE = Symbol.for('@framework/runtime.response');

/** A response built with `response()`. */
export interface ExplicitResponse extends ResponseInit {
  readonly [RESPONSE]: true;
}

/** An explicit response: status, headers and body exactly as given (the automatic mapping does not apply). */
export function response(init: ResponseInit): ExplicitResponse {
  return { ...init, [RESPONSE]: true };
}

export function isExplicitResponse(value: unknown): value is ExplicitResponse {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESPONSE] === true;
}

function hasContentType(headers: Readonly<Record<string, string>> | undefined): boolean {
  if (!headers) return false;
  for (const name in headers) if (name.toLowerCase() === 'content-type') return true;
  return false;
}

function fromExplicit(init: ExplicitResponse, method: string): HttpResponse {
  const headers: Record<string, string> = { ...init.headers };
  const out: HttpResponse = { statusCode: init.statusCode ?? 200, headers, body: '' };
  if (init.cookies && init.cookies.length > 0) out.cookies = [...init.cookies];
  const body = init.body;
  if (body !== undefined && body !== null) {
    // The content type the body's kind implies, used when the headers name none.
    let type: string;
    if (typeof body === 'string') {
      type = 'text/plain; charset=utf-8';
      out.body = body;
    } else if (body instanceof Uint8Array) {
      type = 'application/octet-stream';
      out.body = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
      out.isBase64Encoded = true;
    } else {
      type = JSON_TYPE;
      out.body = JSON.stringify(body);
    }
    if (!hasContentType(headers)) headers['content-type'] = type;
  }
  if (method === 'HEAD') {
    out.body = '';
    delete out.isBase64Encoded;
  }
  return out;
}

/**
 * The automatic mapping of a route's return value:
 * - `response(...)`: passed through;
 * - `undefined`/`null`: 204, no body;
 * - anything else (strings included): JSON, 201 for POST and 200 otherwise;
 * - HEAD: the status GET would have, no body.
 */
export function toHttpResponse(value: unknown, method: string): HttpResponse {
  if (value === undefined || value === null) return { statusCode: 204, headers: {}, body: '' };
  if (isExplicitResponse(value)) return fromExplicit(value, method);
  // HEAD: GET's status and headers, no body (the value is not serialized).
  return { statusCode: method === 'POST' ? 201 : 200, headers: { 'content-type': JSON_TYPE }, body: method === 'HEAD' ? '' : JSON.stringify(value) };
}
