/**
 * Lambda's payload quotas, which the deployed app meets only after `fw dev` served it happily: the HTTP API takes
 * bodies up to 10 MB, but the function behind it is invoked synchronously, and Lambda refuses an event (the request
 * as JSON, a binary body base64-encoded in it) over 6 MB and a result over 6 MB.
 */

/** A synchronous invocation's payload: 6 MB, counted as 6 MiB (Lambda: "Request must be smaller than 6291456 bytes"). */
export const SYNC_REQUEST_LIMIT_BYTES = 6 * 1024 * 1024;
/** A synchronous invocation's result: 6 MB, which Lambda counts 100 bytes larger than a request (6,291,556 bytes). */
export const SYNC_RESPONSE_LIMIT_BYTES = 6 * 1024 * 1024 + 100;
/** An asynchronous invocation's payload (`X-Amz-Invocation-Type: Event`): 1 MB (256 KB before October 2025). */
export const ASYNC_REQUEST_LIMIT_BYTES = 1024 * 1024;

/** Headers, path and query of a request, JSON-escaped, stay below this (Node caps headers at 16 KB). */
const EVENT_OVERHEAD_BOUND_BYTES = 512 * 1024;

/**
 * The size of `event` as Lambda would receive it (JSON, UTF-8), or 0 when it is surely under `limit`: an event whose
 * body could not reach the limit even with every character escaped (`\u0000` is 6 bytes) is not serialized, so
 * ordinary requests pay nothing for the check.
 */
export function eventBytesOver(event: unknown, bodyLength: number, limit: number): number {
  if (bodyLength * 6 + EVENT_OVERHEAD_BOUND_BYTES <= limit) return 0;
  const bytes = Buffer.byteLength(JSON.stringify(event));
  return bytes > limit ? bytes : 0;
}

/** What Lambda's Invoke API answers for a payload over its limit. */
export function requestTooLargeMessage(limit: number, operation: 'synchronous' | 'asynchronous'): string {
  return `Request must be smaller than ${limit} bytes for the ${operation === 'synchronous' ? 'InvokeFunction' : 'InvokeAsync'} operation`;
}

/** `12.0 MB (12582912 bytes)`: sizes in terminal messages. */
export function describeBytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB (${bytes} bytes)`;
}
