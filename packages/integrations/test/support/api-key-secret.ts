/**
 * A key's secret: its last 43 characters (`sk_<kind>_<prefix>_<secret>`, the secret 32 bytes in base64url). The secret
 * may hold `_`, so splitting the key on `_` could leave a single character, which any log line may contain by chance:
 * a test checking that no log carries the secret failed that way in CI (2026-11-24).
 */
export function secretOf(key: string): string {
  return key.slice(-43);
}
