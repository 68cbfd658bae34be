import type { GatewayResponse } from './gateway-response.js';

/** The dev-only response header that says why the gateway refused a request (deployed, only the console knows). */
export const DEV_REASON_HEADER = 'x-fw-dev-reason';

/** The HTTP API's own answers, by status: what its body's `message` says. */
const GATEWAY_MESSAGES = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Request Entity Too Large',
  500: 'Internal Server Error',
} as const;

export type GatewayAnswerStatus = keyof typeof GATEWAY_MESSAGES;

/**
 * The HTTP API's own answer, `{"message":"..."}`, for what AWS refuses outside the handler: no or an invalid token
 * (401 `Unauthorized`), a token without the route's scope (403 `Forbidden`), no route for the method and path (404
 * `Not Found`), a request Lambda will not take (413 `Request Entity Too Large`), an invocation that failed in Lambda
 * itself (500 `Internal Server Error`: result over 6 MB, out of memory). The client sees what it will see deployed;
 * the reason goes to the terminal and, locally only, to the `x-fw-dev-reason` header.
 */
export function gatewayAnswer(statusCode: GatewayAnswerStatus, reason?: string, headers: Record<string, string> = {}): GatewayResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers, ...(reason ? { [DEV_REASON_HEADER]: headerText(reason) } : {}) },
    cookies: [],
    body: JSON.stringify({ message: GATEWAY_MESSAGES[statusCode] }),
  };
}

/** A header value carries printable ASCII only: anything else (a client's path, a claim) becomes `?`. */
function headerText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 1024);
}
