/**
 * What a license key grants: the signed payload of the token. Times are seconds since the epoch (as in a JWT), so a
 * key is readable by any JWS library.
 */
export interface LicenseClaims {
  /** Who the key is issued to (shown by `fw license` and in warnings). */
  readonly licensee: string;
  /** The pro packages it covers, by short name (`tenancy`, `billing`, `ai`, `chat`), or `'*'` for all. */
  readonly packages: readonly string[];
  /** Features of those packages it unlocks, when a package sells some separately. @default - none */
  readonly features?: readonly string[];
  /** When it was issued. */
  readonly iat: number;
  /** When it expires: after this, it works only on releases published before `releasesBefore`. */
  readonly exp: number;
  /**
   * Releases published before this time keep working with the key after it expired (a perpetual fallback).
   * @default - `exp`: a release published while the key was valid keeps working with it
   */
  readonly releasesBefore?: number;
}
