import { errorResponse as frameworkErrorResponse } from '@framework/runtime/dev-server';
import type { DevGatewayErrorCode } from './gateway-error-codes.js';

/** An HTTP response as the dev server writes it. */
export interface GatewayResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies: readonly string[];
  readonly body: string | Buffer;
}

/**
 * Maps a function's result to HTTP with the HTTP API's payload 2.0 rules: an object with `statusCode` is a structured
 * response (`headers`, `cookies` → `set-cookie`, `body`, `isBase64Encoded`); any other value is a 200 whose body is
 * the value as JSON (a string as is) with `content-type: application/json`.
 */
export function mapFunctionResult(value: unknown): GatewayResponse {
  if (typeof value === 'object' && value !== null && 'statusCode' in value && typeof (value as { statusCode: unknown }).statusCode === 'number') {
    const result = value as { statusCode: number; headers?: Record<string, unknown>; cookies?: unknown; body?: unknown; isBase64Encoded?: unknown };
    const headers: Record<string, string> = {};
    for (const [name, v] of Object.entries(result.headers ?? {})) {
      if (v !== undefined && v !== null) headers[name.toLowerCase()] = String(v);
    }
    const cookies = Array.isArray(result.cookies) ? result.cookies.filter((c): c is string => typeof c === 'string') : [];
    const text = result.body === undefined || result.body === null ? '' : typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    const body = result.isBase64Encoded === true ? Buffer.from(text, 'base64') : text;
    return { statusCode: result.statusCode, headers, cookies, body };
  }
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    cookies: [],
    body: typeof value === 'string' ? value : JSON.stringify(value),
  };
}

/**
 * The dev server's own error answers (`DEV_GATEWAY_ERROR_CODES`), written by the runtime's `errorResponse`: the
 * body `{ "error": { "code", "message", "requestId" } }` a deployed function answers with.
 */
export function errorResponse(statusCode: number, code: DevGatewayErrorCode, message: string, requestId: string, headers: Record<string, string> = {}): GatewayResponse {
  const response = frameworkErrorResponse(statusCode, code, message, requestId, { headers });
  return { statusCode, headers: response.headers, cookies: [], body: response.body };
}
