import { randomBytes } from 'node:crypto';

/** `live` keys are for production stages, `test` keys for every other one; a key of the other kind is refused. */
export type ApiKeyKind = 'live' | 'test';

/** The parts of a presented key. */
export interface ParsedApiKey {
  readonly kind: ApiKeyKind;
  /** The public, indexed part: finds the stored record without the secret. */
  readonly prefix: string;
}

const PREFIX_LENGTH = 12;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
// `sk_<kind>_<prefix>_<secret>`: the prefix has a fixed length, so the secret may contain `_` (base64url does).
const KEY_PATTERN = /^sk_(live|test)_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** A new key: `sk_<kind>_<12 lower-case letters or digits>_<32 random bytes, base64url>`. */
export function generateApiKey(kind: ApiKeyKind): { readonly key: string; readonly prefix: string } {
  const bytes = randomBytes(PREFIX_LENGTH);
  // 256 % 36 != 0, so this is very slightly biased; the prefix is an identifier, not the secret.
  let prefix = '';
  for (const byte of bytes) prefix += ALPHABET[byte % ALPHABET.length];
  const secret = randomBytes(32).toString('base64url');
  return { key: `sk_${kind}_${prefix}_${secret}`, prefix };
}

/** The kind and prefix of a presented key, or undefined when it does not have the key's form. */
export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return { kind: match[1] as ApiKeyKind, prefix: match[2]! };
}

/** What a log may show of a key: its kind and prefix, never the secret. */
export function redactApiKey(key: string): string {
  const parsed = parseApiKey(key);
  return parsed ? `sk_${parsed.kind}_${parsed.prefix}_…` : 'sk_…';
}
