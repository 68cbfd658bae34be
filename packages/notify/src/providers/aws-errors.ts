import { ProviderError } from '../errors.js';

/** Names of AWS errors that mean "later may work" although the SDK marks them client faults. */
const RETRYABLE_NAMES = new Set([
  'TooManyRequestsException',
  'ThrottlingException',
  'ThrottledException',
  'ThrottledRequestException',
  'LimitExceededException',
  'ServiceUnavailableException',
  'InternalServiceErrorException',
  'InternalServerException',
  'InternalServiceException',
  'InternalErrorException',
  'SendingPausedException',
]);

/**
 * Whether an AWS SDK error may succeed on a later attempt: throttling, limits, server faults and network errors (no
 * `$fault`: the request may not have reached AWS) are retried; any other client fault (a rejected message, a bad
 * parameter, a missing identity) is not: sending it again would fail again.
 */
export function isRetryableAwsError(error: unknown): boolean {
  const e = error as { name?: string; $fault?: string; $retryable?: unknown } | null;
  if (!e || typeof e !== 'object') return true;
  if (e.$retryable) return true;
  if (e.name && RETRYABLE_NAMES.has(e.name)) return true;
  if (e.$fault === 'server') return true;
  return e.$fault === undefined;
}

/** The `ProviderError` for an AWS SDK error (retryable per `isRetryableAwsError`); passes a `ProviderError` through. */
export function providerErrorOf(provider: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = error as { name?: string; message?: string } | null;
  return new ProviderError(provider, `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`, { retryable: isRetryableAwsError(error), cause: error });
}
