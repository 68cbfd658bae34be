import { createHmac, timingSafeEqual } from 'node:crypto';
import { ExpiredUnsubscribeTokenError, InvalidUnsubscribeTokenError, UnsubscribeSecretError } from '../errors.js';

/** Who unsubscribes from what: the claims an unsubscribe token carries. */
export interface UnsubscribeClaims {
  readonly userId: string;
  readonly category: string;
  /** When the link stops working. */
  readonly expiresAt: Date;
}

/** Options of `createUnsubscribeToken` / `verifyUnsubscribeToken`. */
export interface UnsubscribeTokenOptions {
  /** The signing key: at least 32 bytes (a string is taken as UTF-8). */
  readonly secret: string | Uint8Array;
  /**
   * The time to compare expiry with (tests, digests on a test clock).
   * @default - the current time
   */
  readonly now?: Date;
}

/** Links keep working long enough for an old newsletter found in the archive, but not forever. */
export const DEFAULT_UNSUBSCRIBE_TTL_SECONDS = 60 * 24 * 3600;

const MIN_SECRET_BYTES = 32;
const VERSION = 'v1';

interface Payload {
  readonly u: string;
  readonly c: string;
  readonly e: number;
}

function keyOf(secret: string | Uint8Array): Buffer {
  if (secret === undefined || secret === null) throw new UnsubscribeSecretError('is missing');
  const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (key.length < MIN_SECRET_BYTES) throw new UnsubscribeSecretError(`has ${key.length} bytes, fewer than ${MIN_SECRET_BYTES}`);
  return key;
}

function sign(key: Buffer, body: string): Buffer {
  // The version is signed too, so a token cannot be replayed against a future format.
  return createHmac('sha256', key).update(`${VERSION}.${body}`).digest();
}

/**
 * A URL-safe token `v1.<payload>.<HMAC-SHA256>` for an unsubscribe link: the user, the category and the expiry,
 * signed so that changing any of them (another user's id, another category, a later expiry) is detected.
 */
export function createUnsubscribeToken(claims: { readonly userId: string; readonly category: string; readonly expiresAt?: Date; readonly ttlSeconds?: number }, options: UnsubscribeTokenOptions): string {
  const key = keyOf(options.secret);
  const now = options.now ?? new Date();
  const expiresAt = claims.expiresAt ?? new Date(now.getTime() + (claims.ttlSeconds ?? DEFAULT_UNSUBSCRIBE_TTL_SECONDS) * 1000);
  const payload: Payload = { u: claims.userId, c: claims.category, e: Math.floor(expiresAt.getTime() / 1000) };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${VERSION}.${body}.${sign(key, body).toString('base64url')}`;
}

/**
 * The claims of a genuine, unexpired token. A malformed or altered token is a 400 `UNSUBSCRIBE_TOKEN_INVALID`; a
 * genuine one past its expiry a 410 `UNSUBSCRIBE_TOKEN_EXPIRED`. The signature is checked before anything in the
 * payload is read, and compared in constant time.
 */
export function verifyUnsubscribeToken(token: unknown, options: UnsubscribeTokenOptions): UnsubscribeClaims {
  const key = keyOf(options.secret);
  if (typeof token !== 'string' || token.length === 0) throw new InvalidUnsubscribeTokenError('no token');
  if (token.length > 2048) throw new InvalidUnsubscribeTokenError('too long');
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) throw new InvalidUnsubscribeTokenError('not a token of this service');
  const [, body, signature] = parts as [string, string, string];
  const expected = sign(key, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidUnsubscribeTokenError('signature does not match');
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw new InvalidUnsubscribeTokenError('payload does not parse');
  }
  if (typeof payload?.u !== 'string' || typeof payload.c !== 'string' || typeof payload.e !== 'number' || !Number.isFinite(payload.e)) {
    throw new InvalidUnsubscribeTokenError('payload lacks user, category or expiry');
  }
  const expiresAt = new Date(payload.e * 1000);
  const now = options.now ?? new Date();
  if (now.getTime() >= expiresAt.getTime()) throw new ExpiredUnsubscribeTokenError(expiresAt);
  return { userId: payload.u, category: payload.c, expiresAt };
}
