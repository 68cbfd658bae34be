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
  /**
   * The body's `code` (`VALIDATION_FAILED`, `INSUFFICIENT_SCOPE`, ...); for the gateway's own refusals
   * `UNAUTHORIZED` / `INSUFFICIENT_SCOPE` as well; `HTTP_ERROR` for any other body.
   */
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

/**
 * The error body of an answer: the framework's shape when it is one. Else (API Gateway's JWT authorizer answers
 * `{"message":"Forbidden"}` before any function runs, deployed and under fw dev alike) a body built from the status
 * and the `WWW-Authenticate` header, so a missing scope is `INSUFFICIENT_SCOPE` and a missing or bad token
 * `UNAUTHORIZED`, whichever of the two answered.
 */
export function errorBodyOf(status: number, statusText: string, text: string, headers: Headers): ApiErrorBody {
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
  const said = typeof parsed === 'object' && parsed !== null && typeof (parsed as { message?: unknown }).message === 'string' ? (parsed as { message: string }).message : '';
  const message = `${status} ${said || statusText || 'error'}`.trim();
  const challenge = headers.get('www-authenticate') ?? '';
  if (/\berror="insufficient_scope"/.test(challenge)) {
    const scope = /\bscope="([^"]*)"/.exec(challenge)?.[1];
    return { code: 'INSUFFICIENT_SCOPE', message: scope ? `${message}: the token needs the scope ${scope.split(' ').join(' or ')}` : message };
  }
  if (status === 401) return { code: 'UNAUTHORIZED', message };
  return { code: NON_FRAMEWORK_ERROR, message };
}
