import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The stored form of a key: HMAC-SHA-256 keyed with the server-side pepper, hex. A leaked table alone cannot be
 * brute-forced offline without the pepper, and the key's 256 random bits make a slow hash unnecessary.
 */
export function hashApiKey(key: string, pepper: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

/**
 * Compares two hashes in constant time (the time does not depend on where they differ). Hashes of different lengths
 * (a corrupted row) are simply unequal.
 */
export function hashesEqual(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
