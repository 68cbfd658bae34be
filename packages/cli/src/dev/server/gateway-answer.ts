import type { GatewayResponse } from './gateway-response.js';

/**
 * The HTTP API's own answer, `{"message":"..."}`, for what AWS refuses outside the handler: a request Lambda will not
 * take (413 `Request Entity Too Large`), an invocation that failed in Lambda itself (500 `Internal Server Error`:
 * result over 6 MB, out of memory). The client sees what it will see deployed; the reason goes to the terminal.
 */
export function gatewayAnswer(statusCode: 413 | 500, message: 'Request Entity Too Large' | 'Internal Server Error'): GatewayResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, cookies: [], body: JSON.stringify({ message }) };
}
