const REDACTED = '[REDACTED]';

/** Query parameters whose values never reach a log line or an error message. */
export const DEFAULT_REDACTED_QUERY_PARAMS: readonly string[] = [
  'access_token', 'refresh_token', 'id_token', 'token', 'client_secret', 'code', 'api_key', 'apikey', 'key', 'secret',
  'password', 'signature', 'sig', 'x-amz-signature', 'x-amz-security-token', 'x-amz-credential',
];

/** Headers whose values never reach a log line. */
export const DEFAULT_REDACTED_HEADERS: readonly string[] = [
  'authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token', 'x-amz-security-token',
];

/** A URL fit for a log line: user info and the values of sensitive query parameters replaced, no fragment. */
export function redactUrl(url: URL, redactedParams: ReadonlySet<string>): string {
  const userInfo = url.username || url.password ? `${REDACTED}@` : '';
  return `${url.protocol}//${userInfo}${url.host}${redactPath(url, redactedParams)}`;
}

/** The path and query of `url`, sensitive query values replaced, for the `path` field of a log line. */
export function redactPath(url: URL, redactedParams: ReadonlySet<string>): string {
  if (!url.search) return url.pathname;
  const parts: string[] = [];
  for (const [name, value] of url.searchParams) parts.push(`${encodeURIComponent(name)}=${redactedParams.has(name.toLowerCase()) ? REDACTED : encodeURIComponent(value)}`);
  return `${url.pathname}?${parts.join('&')}`;
}

/** Headers fit for a log line (lower-case names, sensitive values replaced). */
export function redactHeaders(headers: Readonly<Record<string, string>>, redactedNames: ReadonlySet<string>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) out[name] = redactedNames.has(name) ? REDACTED : value;
  return out;
}
