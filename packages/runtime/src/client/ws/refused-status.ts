/**
 * The HTTP status a failed connection attempt was answered with, when the platform tells it: the `ws` package reports
 * a refused upgrade as the error `Unexpected server response: 401`. Browsers never show it to page scripts (a refused
 * upgrade is an error event and a 1006 close, whatever the status), so there this is always undefined.
 */
export function refusedStatus(error: unknown): number | undefined {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  const match = typeof message === 'string' ? /^Unexpected server response: (\d{3})$/.exec(message) : null;
  return match ? Number(match[1]) : undefined;
}
