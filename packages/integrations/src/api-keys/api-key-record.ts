import type { ApiKeyKind } from './api-key-format.js';

/** A key's per-key rate limit: at most `requests` per `windowSeconds`. */
export interface ApiKeyRateLimit {
  readonly requests: number;
  readonly windowSeconds: number;
}

/** A stored key, as `list` shows it and the verifier reads it: never the key, only its hash. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly prefix: string;
  readonly kind: ApiKeyKind;
  readonly owner: string;
  /** The tenant the key acts for, when it was issued for one. */
  readonly tenant?: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly rateLimit?: ApiKeyRateLimit;
  readonly createdAt: Date;
  readonly expiresAt?: Date;
  readonly revokedAt?: Date;
  readonly lastUsedAt?: Date;
}

/** The record with its hash: what the store and the verification cache hold. */
export interface StoredApiKey extends ApiKeyRecord {
  readonly hash: string;
}
