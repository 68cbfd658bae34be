import { HttpError } from '../errors.js';
import { getRootLogger, type Logger } from '../logger/logger.js';
import type { HttpResponse } from '../middleware/types.js';
import { JSON_TYPE } from './content-type.js';

/** What a client reads of any 500: the real error goes to the log only. */
const INTERNAL_MESSAGE = 'Internal server error';

/**
 * The shared error body: `{ "error": { "code", "message", "requestId", "details"? } }`. `requestId` is absent only
 * where the documented body has just code and message (the idempotency middleware's missing-key answer).
 */
export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly requestId?: string;
    readonly details?: unknown;
  };
}

/**
 * A response with the shared error body: the one writer of every framework error answer (route errors, the
 * idempotency middleware, `fw dev`'s own answers), so the shape and its content type cannot drift apart.
 */
export function errorResponse(
  statusCode: number,
  code: string,
  message: string,
  requestId: string | undefined,
  options: { details?: unknown; headers?: Readonly<Record<string, string>> } = {},
): HttpResponse {
  const error: { code: string; message: string; requestId?: string; details?: unknown } = { code, message };
  if (requestId !== undefined) error.requestId = requestId;
  if (options.details !== undefined) error.details = options.details;
  return {
    statusCode,
    headers: { ...options.headers, 'content-type': JSON_TYPE },
    body: JSON.stringify({ error }),
  };
}

/**
 * The response for anything a route (or its middleware) threw. `HttpError`s keep their status, code, message,
 * details and headers (their message is written for the client), except a 500, whose message never leaves the
 * function. Anything else is a 500
 * `INTERNAL_ERROR` with a fixed message; the real error, with its stack, goes to the log with the request id.
 */
export function responseForError(error: unknown, requestId: string, getLogger: () => Logger): HttpResponse {
  if (!(error instanceof HttpError)) {
    getLogger().error('Unhandled error', { error });
    return errorResponse(500, 'INTERNAL_ERROR', INTERNAL_MESSAGE, requestId);
  }
  const { status, code } = error;
  if (status >= 500) getLogger().error(`Request failed with ${status} ${code}`, { error });
  // A 4xx is the client's business and the gateway's access log has it; debug keeps CloudWatch quiet by default.
  else if (getRootLogger().isEnabled('debug')) getLogger().debug(`Request answered ${status} ${code}`, { code, message: error.message });
  // One call for every HttpError (a bundle carries one copy): a 500 keeps its message and details in the log.
  const hidden = status === 500;
  return errorResponse(status, code, hidden ? INTERNAL_MESSAGE : error.message, requestId, { details: hidden ? undefined : error.details, headers: error.headers });
}
