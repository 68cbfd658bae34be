import { parseApiKey } from '../../src/index.js';

/**
 * A key's secret: what follows `sk_<kind>_<prefix>_` (the prefix has a fixed length, see `api-key-format.ts`). The
 * secret is base64url and may hold `_`, so splitting the key on `_` could leave a single character, which any log line
 * may contain by chance: a test checking that no log carries the secret failed that way in CI (2026-11-24).
 */
export function secretOf(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) throw new Error(`not an API key: ${key.slice(0, 16)}…`);
  return key.slice(`sk_${parsed.kind}_${parsed.prefix}_`.length);
}
