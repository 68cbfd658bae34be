import { InvalidObjectKeyError } from '../errors.js';

/** S3's limit on a key, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 1024;

// Control characters (C0 and DEL) break logs, headers and file names; S3 accepts them, we do not.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Why a key is refused, or `undefined` when it is fine. S3 itself accepts `../x`, but the same key would escape the
 * folder of the local engine or of any tool that mirrors a bucket to disk, and it is almost always an attack through
 * a user-supplied file name; so the framework refuses it in both places.
 */
export function objectKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return 'the key must be a string';
  if (key.length === 0) return 'the key is empty';
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return `the key is longer than ${MAX_KEY_BYTES} bytes`;
  if (key.startsWith('/')) return 'the key starts with "/"';
  if (key.includes('\\')) return 'the key contains a backslash';
  if (CONTROL.test(key)) return 'the key contains a control character';
  if (key.split('/').some((segment) => segment === '..' || segment === '.')) return 'the key has a "." or ".." segment';
  return undefined;
}

/** Returns the key, or throws `InvalidObjectKeyError`. */
export function validateObjectKey(key: string): string {
  const problem = objectKeyProblem(key);
  if (problem !== undefined) throw new InvalidObjectKeyError(String(key), problem);
  return key;
}

/** `a b/c+d` → `a%20b/c%2Bd`: each segment URL-encoded, the `/` kept, as S3 URLs write keys. */
export function encodeObjectKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
