import { IdempotencyNotOwnerError } from './errors.js';
import {
  isLiveRecord,
  type AcquireResult,
  type IdempotencyRecord,
  type IdempotencyStore,
  type PendingIdempotencyRecord,
} from './idempotency-store.js';
import { decodeStoredData, encodeStoredData, type EncodedData } from './private/stored-data.js';

type StoredRecord = Omit<IdempotencyRecord, 'data'> & { readonly encoded?: EncodedData };

/**
 * The local-development store: a Map in the process. Each operation runs to completion before the next starts (one
 * event loop), which makes acquire atomic. Results go through the same size limit as DynamoDB so a response too
 * large for the cloud fails locally too.
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, StoredRecord>();

  public async acquire(record: PendingIdempotencyRecord, nowMs: number): Promise<AcquireResult> {
    const existing = this.records.get(record.key);
    if (existing && isLiveRecord(existing, nowMs)) return { acquired: false, existing: this.toRecord(existing) };
    this.records.set(record.key, { ...record });
    return { acquired: true };
  }

  public async get(key: string, nowMs: number): Promise<IdempotencyRecord | undefined> {
    const existing = this.records.get(key);
    return existing && isLiveRecord(existing, nowMs) ? this.toRecord(existing) : undefined;
  }

  public async complete(key: string, owner: string, data: string, expiresAt: number): Promise<void> {
    const existing = this.records.get(key);
    if (!existing || existing.status !== 'pending' || existing.owner !== owner) throw new IdempotencyNotOwnerError(key);
    const encoded = encodeStoredData(data);
    this.records.set(key, { key, status: 'completed', fingerprint: existing.fingerprint, expiresAt, encoded });
  }

  public async release(key: string, owner: string): Promise<void> {
    const existing = this.records.get(key);
    if (!existing) return;
    if (existing.owner !== owner) throw new IdempotencyNotOwnerError(key);
    this.records.delete(key);
  }

  /** Number of records held, expired ones included (for tests and diagnostics). */
  public get size(): number {
    return this.records.size;
  }

  private toRecord(stored: StoredRecord): IdempotencyRecord {
    const { encoded, ...rest } = stored;
    return encoded ? { ...rest, data: decodeStoredData(encoded) } : rest;
  }
}

/** An in-memory store (local development, tests). */
export function createInMemoryIdempotencyStore(): InMemoryIdempotencyStore {
  return new InMemoryIdempotencyStore();
}
