/*
 * Reading a PostgreSQL error's SQLSTATE, with no dependency: the client (retries, transactions) and pagination
 * (forged cursors) both need it, and pagination must not import the client that imports it.
 */

/** Five digits or capitals: a SQLSTATE, as opposed to a Node error code such as `ECONNRESET`. */
export const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The SQLSTATE of a server error, also when it was wrapped (our HttpErrors keep the pg error as `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code)) return code;
  }
  return undefined;
}
