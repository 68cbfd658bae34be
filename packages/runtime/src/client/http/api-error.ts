/** One problem of a 400 `VALIDATION_FAILED` answer: which part of the request, where in it, and what is wrong. */
export interface ApiIssue {
  /** `body`, `query`, `params` or `headers`. */
  readonly in: string;
  /** Keys and indexes down to the value, e.g. `['title']`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The framework's error body, `{ "error": { code, message, requestId?, details? } }`. */
export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
  readonly requestId?: string;
  readonly details?: unknown;
}

/** Code of an error answer whose body is not the framework's (a proxy's HTML page, the gateway's `{ message }`). */
export const NON_FRAMEWORK_ERROR = 'HTTP_ERROR';

/**
 * An answer with a status of 400 or more, thrown by the generated client: the status and the framework's error body
 * (`code`, `message`, `requestId`, `details`), with `issues` lifted out of a `VALIDATION_FAILED` body. A failure to
 * reach the server at all is `fetch`'s own error, not this.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The body's `code` (`VALIDATION_FAILED`, `INSUFFICIENT_SCOPE`, ...), or `HTTP_ERROR` for a body of another shape. */
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: unknown;
  /** Every issue of a `VALIDATION_FAILED` answer (empty for other codes). */
  readonly issues: readonly ApiIssue[];

  constructor(
    readonly status: number,
    body: ApiErrorBody,
    /** The response's headers (`WWW-Authenticate`, `Retry-After`, ...). */
    readonly headers: Headers,
  ) {
    super(body.message);
    this.code = body.code;
    this.requestId = body.requestId;
    this.details = body.details;
    this.issues = issuesOf(body.details);
  }
}

function issuesOf(details: unknown): readonly ApiIssue[] {
  const issues = typeof details === 'object' && details !== null ? (details as { issues?: unknown }).issues : undefined;
  return Array.isArray(issues) ? (issues as ApiIssue[]) : [];
}

/** The error body of an answer: the framework's shape when it is one, else a message built from what there is. */
export function errorBodyOf(status: number, statusText: string, text: string): ApiErrorBody {
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null && typeof (error as ApiErrorBody).code === 'string' && typeof (error as ApiErrorBody).message === 'string') {
    return error as ApiErrorBody;
  }
  // API Gateway's own answers (`{"message":"Unauthorized"}`) and anything else in front of the functions.
  const message = typeof parsed === 'object' && parsed !== null && typeof (parsed as { message?: unknown }).message === 'string' ? (parsed as { message: string }).message : '';
  return { code: NON_FRAMEWORK_ERROR, message: `${status} ${message || statusText || 'error'}`.trim() };
}
