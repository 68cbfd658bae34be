import type { AcquireResult, DevIdempotencyReply, DevIdempotencyRequest, IdempotencyRecord, IdempotencyStore, PendingIdempotencyRecord } from '@framework/runtime';
import { IdempotencyNotOwnerError, isLiveRecord } from '@framework/runtime/dev-server';
import { AppendOnlyLog } from '../durable-log/index.js';

/** A journal line: a record as it now is, or the key of a deleted one. */
type JournalEntry = { readonly put: IdempotencyRecord } | { readonly delete: string };

/**
 * `fw dev`'s idempotency store: one for the whole dev server, so every function and every instance of it (a new one
 * after each edit, crash or timeout) sees the same records, and persisted in an fsync'd journal under
 * `.fw/idempotency/` (the durable log the queues use), so they survive a restart of `fw dev` until their TTL.
 * Operations run on the dev server's event loop (atomic as the in-memory store's) and answer only once the change is
 * on disk.
 */
export class PersistentIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private journal!: AppendOnlyLog<JournalEntry>;

  private constructor() {}

  /**
   * Opens the store kept in `file` (created when missing; see `AppendOnlyLog` for torn writes and the lock against a
   * second `fw dev` on the same project); records whose TTL has passed are dropped.
   */
  static async open(file: string, nowMs = Date.now(), onRecover?: (problem: string) => void): Promise<PersistentIdempotencyStore> {
    const store = new PersistentIdempotencyStore();
    const { log, records } = await AppendOnlyLog.open<JournalEntry>(file, { snapshot: () => store.snapshot(), ...(onRecover ? { onRecover } : {}) });
    store.journal = log;
    for (const entry of records) {
      if ('put' in entry) store.records.set(entry.put.key, entry.put);
      else store.records.delete(entry.delete);
    }
    for (const [key, record] of store.records) if (record.expiresAt * 1000 <= nowMs) store.records.delete(key);
    return store;
  }

  public async acquire(record: PendingIdempotencyRecord, nowMs: number): Promise<AcquireResult> {
    const existing = this.records.get(record.key);
    if (existing && isLiveRecord(existing, nowMs)) return { acquired: false, existing };
    const saved: IdempotencyRecord = { ...record };
    this.records.set(record.key, saved);
    try {
      await this.journal.append({ put: saved });
    } catch (error) {
      // Not on disk, so not acquired: a retry must not find a pending record nobody owns.
      if (this.records.get(record.key) === saved) {
        if (existing) this.records.set(record.key, existing);
        else this.records.delete(record.key);
      }
      throw error;
    }
    return { acquired: true };
  }

  public async get(key: string, nowMs: number): Promise<IdempotencyRecord | undefined> {
    const existing = this.records.get(key);
    return existing && isLiveRecord(existing, nowMs) ? existing : undefined;
  }

  public async complete(key: string, owner: string, data: string, expiresAt: number): Promise<void> {
    if (!(await this.completeOwned(key, owner, data, expiresAt))) throw new IdempotencyNotOwnerError(key);
  }

  public async release(key: string, owner: string): Promise<void> {
    if (!(await this.releaseOwned(key, owner))) throw new IdempotencyNotOwnerError(key);
  }

  /** Runs one request from a function's worker (see `DevServerIdempotencyStore` in the runtime). */
  async serve(request: DevIdempotencyRequest): Promise<DevIdempotencyReply> {
    switch (request?.op) {
      case 'acquire':
        return this.acquire(request.record, request.nowMs);
      case 'get': {
        const record = await this.get(request.key, request.nowMs);
        return record ? { record } : {};
      }
      case 'complete':
        return (await this.completeOwned(request.key, request.owner, request.data, request.expiresAt)) ? {} : { notOwner: true };
      case 'release':
        return (await this.releaseOwned(request.key, request.owner)) ? {} : { notOwner: true };
      default:
        throw new Error(`unknown idempotency store operation ${JSON.stringify((request as { op?: unknown } | undefined)?.op)}`);
    }
  }

  /** Number of records held (for tests and diagnostics). */
  get size(): number {
    return this.records.size;
  }

  /** Waits for the writes under way and closes the journal. */
  close(): Promise<void> {
    return this.journal.close();
  }

  private async completeOwned(key: string, owner: string, data: string, expiresAt: number): Promise<boolean> {
    const existing = this.records.get(key);
    if (!existing || existing.status !== 'pending' || existing.owner !== owner) return false;
    const completed: IdempotencyRecord = {
      key,
      status: 'completed',
      expiresAt,
      data,
      ...(existing.fingerprint !== undefined ? { fingerprint: existing.fingerprint } : {}),
    };
    this.records.set(key, completed);
    await this.write({ put: completed });
    return true;
  }

  private async releaseOwned(key: string, owner: string): Promise<boolean> {
    const existing = this.records.get(key);
    if (!existing) return true;
    if (existing.owner !== owner) return false;
    this.records.delete(key);
    await this.write({ delete: key });
    return true;
  }

  private write(entry: JournalEntry): Promise<void> {
    return this.journal.append(entry);
  }

  /** The live state, for compaction (records carry absolute values, so replaying later entries on it is safe). */
  private snapshot(nowMs = Date.now()): JournalEntry[] {
    return [...this.records.values()].filter((record) => record.expiresAt * 1000 > nowMs).map((put) => ({ put }));
  }
}
