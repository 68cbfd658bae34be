/**
 * When this release of the pro packages was published (ISO 8601, UTC). The release process sets it (all
 * `@framework-pro/*` packages are released together); an expired key keeps working on releases published before its
 * `releasesBefore` (default: its expiry), so this date decides whether it still does.
 */
export const RELEASE_DATE = '2026-11-23T00:00:00Z';
