import { DEV_IDEMPOTENCY_SERVICE, DEV_WORKER_SERVICES_KEY, ENV, type DevWorkerServiceCall } from '@framework/core/names';
import { IdempotencyNotOwnerError, IdempotencyStoreError } from './errors.js';
import type { AcquireResult, IdempotencyRecord, IdempotencyStore, PendingIdempotencyRecord } from './idempotency-store.js';
import { encodeStoredData } from './private/stored-data.js';

// `fw dev` runs each function in a worker thread that it replaces after every edit, crash and timeout, so a store in
// the worker's memory would forget a completed key and the next retry would run the handler again. The dev server
// keeps the records instead (persisted under `.fw/idempotency/`), reached through its worker's service call.

/** One `IdempotencyStore` operation sent to the dev server. */
export type DevIdempotencyRequest =
  | { readonly op: 'acquire'; readonly record: PendingIdempotencyRecord; readonly nowMs: number }
  | { readonly op: 'get'; readonly key: string; readonly nowMs: number }
  | { readonly op: 'complete'; readonly key: string; readonly owner: string; readonly data: string; readonly expiresAt: number }
  | { readonly op: 'release'; readonly key: string; readonly owner: string };

/** Its answer: `acquire` gives an `AcquireResult`, `get` a `record`, `complete` and `release` `notOwner` when refused. */
export type DevIdempotencyReply = AcquireResult | { readonly record?: IdempotencyRecord } | { readonly notOwner?: boolean };

/** The call the dev server's worker provides, when this code runs inside `fw dev` (`FW_DEV_ENDPOINT` set). */
export function devWorkerServiceCall(env: NodeJS.ProcessEnv = process.env): DevWorkerServiceCall | undefined {
  if (!env[ENV.devEndpoint]) return undefined;
  const call = (globalThis as Record<symbol, unknown>)[Symbol.for(DEV_WORKER_SERVICES_KEY)];
  return typeof call === 'function' ? (call as DevWorkerServiceCall) : undefined;
}

/**
 * The store a function uses inside `fw dev`: each operation is one call to the dev server, which runs it atomically
 * (one event loop) and persists it before answering. Size limits are checked here, with this runtime's error class,
 * so a result too large for DynamoDB fails locally exactly as deployed.
 */
export class DevServerIdempotencyStore implements IdempotencyStore {
  constructor(private readonly call: DevWorkerServiceCall) {}

  public async acquire(record: PendingIdempotencyRecord, nowMs: number): Promise<AcquireResult> {
    return (await this.send('acquire a record', { op: 'acquire', record, nowMs })) as AcquireResult;
  }

  public async get(key: string, nowMs: number): Promise<IdempotencyRecord | undefined> {
    return ((await this.send('read a record', { op: 'get', key, nowMs })) as { record?: IdempotencyRecord }).record;
  }

  public async complete(key: string, owner: string, data: string, expiresAt: number): Promise<void> {
    encodeStoredData(data);
    const reply = (await this.send('complete a record', { op: 'complete', key, owner, data, expiresAt })) as { notOwner?: boolean };
    if (reply.notOwner) throw new IdempotencyNotOwnerError(key);
  }

  public async release(key: string, owner: string): Promise<void> {
    const reply = (await this.send('delete a record', { op: 'release', key, owner })) as { notOwner?: boolean };
    if (reply.notOwner) throw new IdempotencyNotOwnerError(key);
  }

  private async send(operation: string, request: DevIdempotencyRequest): Promise<DevIdempotencyReply> {
    try {
      return (await this.call(DEV_IDEMPOTENCY_SERVICE, request)) as DevIdempotencyReply;
    } catch (error) {
      throw new IdempotencyStoreError(operation, error);
    }
  }
}
