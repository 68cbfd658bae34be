import { FrameworkError } from '@framework/core/names';

/**
 * Errors of the idempotency and saga features. Every one has a stable `code`; the runtime README's idempotency
 * section lists each code with its cause and fix, and `test/idempotency/errors.test.ts` keeps both in step.
 *
 * HTTP requests never see these classes: the middleware answers them with the documented status codes and bodies
 * (`IDEMPOTENCY_HTTP_CODES`). They surface where there is no HTTP answer to give: task idempotency (`makeIdempotent`),
 * sagas, store failures and invalid options.
 */
export const IDEMPOTENCY_ERROR_CODES = {
  FW_ERR_IDEMPOTENCY_CONFIG: 'An idempotency or saga option is invalid (missing store, non-positive ttlSeconds, empty scope, ...).',
  FW_ERR_IDEMPOTENCY_KEY_MISSING: 'makeIdempotent: the key function returned no key for an input.',
  FW_ERR_IDEMPOTENCY_KEY_TOO_LONG: 'An idempotency key is longer than the maximum length (255 characters by default).',
  FW_ERR_IDEMPOTENCY_IN_PROGRESS: 'Another invocation holds the key (pending record with a live lease).',
  FW_ERR_IDEMPOTENCY_KEY_REUSED: 'The key was already used with a different input (fingerprint mismatch).',
  FW_ERR_IDEMPOTENCY_NOT_OWNER: 'An invocation tried to complete or delete a pending record it does not own (its lease ended and another took over).',
  FW_ERR_IDEMPOTENCY_RESPONSE_TOO_LARGE: 'The result to store is larger than a store item can hold, even compressed.',
  FW_ERR_IDEMPOTENCY_STORE: 'The store backend failed (network, permissions, missing table).',
  FW_ERR_SAGA_DEFINITION: 'A saga definition is invalid (no steps, duplicate step names, bad id).',
  FW_ERR_SAGA_IN_PROGRESS: 'Another run of the same saga id holds its lease.',
  FW_ERR_SAGA_FAILED: 'A saga step failed and every completed step was compensated (state `compensated`).',
  FW_ERR_SAGA_COMPENSATION_FAILED: 'A saga step failed and a compensation failed too (state `failed`); re-run to retry the compensation.',
  FW_ERR_SAGA_LEASE_LOST: 'A saga run lost its lease to another run while it was still working.',
} as const;

export type IdempotencyErrorCode = keyof typeof IDEMPOTENCY_ERROR_CODES;

/** Codes in the JSON bodies the HTTP middleware answers with (`{ error: { code, message, ... } }`), with their status. */
export const IDEMPOTENCY_HTTP_CODES = {
  MISSING_IDEMPOTENCY_KEY: { status: 400, meaning: '`required` is true and the request carries no key.' },
  IDEMPOTENCY_KEY_TOO_LONG: { status: 400, meaning: 'The key is longer than `maxKeyLength`.' },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { status: 409, meaning: 'A request with the same key is still running (sent with Retry-After).' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: 'The key was already used with a different method, path or body.' },
} as const;

/** Base of the idempotency and saga errors. */
export class IdempotencyError extends FrameworkError {
  constructor(code: IdempotencyErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export class IdempotencyConfigError extends IdempotencyError {
  constructor(message: string) {
    super('FW_ERR_IDEMPOTENCY_CONFIG', message);
  }
}

export class IdempotencyKeyMissingError extends IdempotencyError {
  constructor(scope: string) {
    super(
      'FW_ERR_IDEMPOTENCY_KEY_MISSING',
      `makeIdempotent(${JSON.stringify(scope)}): the key function returned no key for this input. ` +
        'Return a stable string per operation (for an SQS record: record.messageId or a business id from the body).',
    );
  }
}

export class IdempotencyKeyTooLongError extends IdempotencyError {
  constructor(length: number, max: number) {
    super('FW_ERR_IDEMPOTENCY_KEY_TOO_LONG', `The idempotency key has ${length} characters; the maximum is ${max}. Use a shorter key (a UUID is 36).`);
  }
}

export class IdempotencyInProgressError extends IdempotencyError {
  /** Seconds until the holder's lease ends. */
  public readonly retryAfterSeconds: number;
  constructor(key: string, retryAfterSeconds: number) {
    super(
      'FW_ERR_IDEMPOTENCY_IN_PROGRESS',
      `Another invocation is processing idempotency key ${JSON.stringify(key)}; retry after ${retryAfterSeconds} s ` +
        '(for a queue record: let it fail so the queue redelivers it after the visibility timeout).',
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class IdempotencyKeyReusedError extends IdempotencyError {
  constructor(key: string) {
    super(
      'FW_ERR_IDEMPOTENCY_KEY_REUSED',
      `Idempotency key ${JSON.stringify(key)} was already used with a different input. Use a new key for a new operation.`,
    );
  }
}

export class IdempotencyNotOwnerError extends IdempotencyError {
  constructor(key: string) {
    super(
      'FW_ERR_IDEMPOTENCY_NOT_OWNER',
      `The pending record of ${JSON.stringify(key)} belongs to another invocation (this one's lease ended). ` +
        'Raise the function timeout if handlers legitimately run longer than it.',
    );
  }
}

export class IdempotencyResponseTooLargeError extends IdempotencyError {
  constructor(bytes: number, max: number) {
    super(
      'FW_ERR_IDEMPOTENCY_RESPONSE_TOO_LARGE',
      `The result to store is ${bytes} bytes compressed; a store item holds at most ${max}. ` +
        'Return a smaller result (for example an id and a URL to fetch the rest).',
    );
  }
}

export class IdempotencyStoreError extends IdempotencyError {
  constructor(operation: string, cause: unknown) {
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(
      'FW_ERR_IDEMPOTENCY_STORE',
      `The idempotency store failed to ${operation} (${detail}). Check that the table exists, has the string partition ` +
        'key `pk`, and that the function may read and write it.',
      { cause },
    );
  }
}

export class SagaDefinitionError extends IdempotencyError {
  constructor(message: string) {
    super('FW_ERR_SAGA_DEFINITION', message);
  }
}

export class SagaInProgressError extends IdempotencyError {
  public readonly retryAfterSeconds: number;
  constructor(sagaId: string, retryAfterSeconds: number) {
    super(
      'FW_ERR_SAGA_IN_PROGRESS',
      `Saga run ${JSON.stringify(sagaId)} is being executed by another invocation; retry after ${retryAfterSeconds} s.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class SagaFailedError extends IdempotencyError {
  /** The step whose run failed. */
  public readonly failedStep: string;
  constructor(sagaId: string, failedStep: string, reason: string, cause?: unknown) {
    super(
      'FW_ERR_SAGA_FAILED',
      `Saga run ${JSON.stringify(sagaId)} failed at step ${JSON.stringify(failedStep)} (${reason}); every completed step was compensated.`,
      { cause },
    );
    this.failedStep = failedStep;
  }
}

export class SagaCompensationFailedError extends IdempotencyError {
  public readonly failedStep: string;
  public readonly compensationStep: string;
  constructor(sagaId: string, failedStep: string, compensationStep: string, reason: string, cause?: unknown) {
    super(
      'FW_ERR_SAGA_COMPENSATION_FAILED',
      `Saga run ${JSON.stringify(sagaId)} failed at step ${JSON.stringify(failedStep)} and compensating ` +
        `${JSON.stringify(compensationStep)} failed too (${reason}). Fix the cause and run the saga again with the same id: ` +
        'the remaining compensations are retried.',
      { cause },
    );
    this.failedStep = failedStep;
    this.compensationStep = compensationStep;
  }
}

export class SagaLeaseLostError extends IdempotencyError {
  constructor(sagaId: string) {
    super(
      'FW_ERR_SAGA_LEASE_LOST',
      `Saga run ${JSON.stringify(sagaId)} lost its lease to another run. Raise leaseSeconds above the longest step.`,
    );
  }
}
