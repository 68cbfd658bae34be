import { createHash } from 'node:crypto';

/** Length of the hash suffix `-xxxxxxxx` that a shortened name ends with. */
const HASH_SUFFIX_LENGTH = 9;

/** Eight hex characters of SHA-256: a stable fingerprint of a name or identity. */
export function shortHash(input: string): string {
  return createHash('sha256').update(input).digest('hex').slice(0, 8);
}

/**
 * Returns `name` unchanged when it fits in `limit`; otherwise a deterministic shortening: the longest prefix that
 * leaves room for `-<8 hex of sha256(name)>`. Two different long names keep different results because the hash is
 * of the whole name, and a readable prefix stays so the unit is recognisable in the console.
 */
export function fitName(name: string, limit: number): string {
  if (name.length <= limit) return name;
  const prefix = name.slice(0, limit - HASH_SUFFIX_LENGTH).replace(/[-_]+$/, '');
  return `${prefix}-${shortHash(name)}`;
}
