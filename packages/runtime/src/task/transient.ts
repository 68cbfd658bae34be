/**
 * Which errors are worth retrying within the invocation ("transient"):
 * - marked: `retryable: true` (our `RetryableError`, or any error carrying the flag) or the AWS SDK's `$retryable`;
 * - throttling: the AWS SDK's throttling error names (`ThrottlingException`, `TooManyRequestsException`,
 *   `ProvisionedThroughputExceededException`, ...), and a 429 status;
 * - timeouts and dropped connections: `TimeoutError`, `RequestTimeout*`, `ETIMEDOUT`, `ECONNRESET`, `EPIPE`,
 *   `EAI_AGAIN`, `ECONNREFUSED`;
 * - server errors: a 5xx `$metadata.httpStatusCode` (AWS SDK), `statusCode` or `status` (HTTP errors).
 * An explicit `retryable: false` wins over everything else. The `cause` chain is followed, so a wrapped SDK error
 * stays transient.
 */

const THROTTLING_NAMES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
]);

const TIMEOUT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const NETWORK_CODES = new Set(['ETIMEDOUT', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'ECONNREFUSED', 'ESOCKETTIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  retryable?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  statusCode?: unknown;
  status?: unknown;
  cause?: unknown;
}

function isServerStatus(value: unknown): boolean {
  return typeof value === 'number' && value >= 500 && value <= 599;
}

export function isTransientError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as ErrorLike;
  if (e.retryable === false) return false;
  if (e.retryable === true || (e.$retryable !== undefined && e.$retryable !== null && e.$retryable !== false)) return true;
  if (typeof e.name === 'string' && (THROTTLING_NAMES.has(e.name) || TIMEOUT_NAMES.has(e.name))) return true;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || THROTTLING_NAMES.has(e.code))) return true;
  if (isServerStatus(e.$metadata?.httpStatusCode) || isServerStatus(e.statusCode) || isServerStatus(e.status)) return true;
  if (e.$metadata?.httpStatusCode === 429 || e.statusCode === 429 || e.status === 429) return true;
  return isTransientError(e.cause, depth + 1);
}
