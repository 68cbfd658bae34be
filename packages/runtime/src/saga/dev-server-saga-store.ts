import { DEV_SAGA_SERVICE, type DevWorkerServiceCall } from '@framework/core/names';
import { IdempotencyStoreError, SagaLeaseLostError } from '../idempotency/errors.js';
import { encodeStoredData } from '../idempotency/private/stored-data.js';
import type { SagaClaim, SagaState, SagaStore } from './saga-store.js';

// `fw dev` replaces a function's worker thread after a crash or a timeout: a saga kept in the worker's memory would
// be forgotten by the very crash it exists to survive, and the redelivered message would start the run over. The dev
// server keeps the runs instead. Lease ends travel as durations (`leaseMs`): the dev server measures them on its own
// clock, which a test moves (`app.clock.advance`), so a crashed run's lease ends when the test's time says so.

/** One `SagaStore` operation sent to the dev server; `leaseMs` is how long the lease lasts from now (0: released). */
export type DevSagaRequest =
  | { readonly op: 'claim'; readonly key: string; readonly owner: string; readonly leaseMs: number; readonly nowMs: number; readonly initial: SagaState; readonly expiresAt: number }
  | { readonly op: 'save'; readonly key: string; readonly owner: string; readonly state: SagaState; readonly leaseMs: number; readonly expiresAt: number }
  | { readonly op: 'get'; readonly key: string };

/**
 * Its answer: `claim` a claim whose `leaseExpiresAt` (refused) is a duration from now, `leaseLeftMs`; `save`
 * `leaseLost` when another run holds the lease; `get` the run.
 */
export type DevSagaReply =
  | { readonly claimed: true; readonly state: SagaState; readonly expiresAt: number }
  | { readonly claimed: false; readonly leaseLeftMs: number }
  | { readonly leaseLost?: boolean }
  | { readonly run?: { readonly state: SagaState; readonly expiresAt: number } };

/** The saga store a function uses inside `fw dev`: each operation is one call to the dev server. */
export class DevServerSagaStore implements SagaStore {
  constructor(private readonly call: DevWorkerServiceCall) {}

  public async claim(key: string, owner: string, leaseExpiresAt: number, nowMs: number, initial: SagaState, expiresAt: number): Promise<SagaClaim> {
    const reply = (await this.send('claim a saga run', { op: 'claim', key, owner, leaseMs: Math.max(0, leaseExpiresAt - nowMs), nowMs, initial, expiresAt })) as
      | { claimed: true; state: SagaState; expiresAt: number }
      | { claimed: false; leaseLeftMs: number };
    return reply.claimed ? reply : { claimed: false, leaseExpiresAt: nowMs + reply.leaseLeftMs };
  }

  public async save(key: string, owner: string, state: SagaState, leaseExpiresAt: number, expiresAt: number): Promise<void> {
    // The same size limit as DynamoDB, so a state too large for the cloud fails here too.
    encodeStoredData(JSON.stringify(state));
    const leaseMs = leaseExpiresAt === 0 ? 0 : Math.max(1, leaseExpiresAt - Date.now());
    const reply = (await this.send('save a saga run', { op: 'save', key, owner, state, leaseMs, expiresAt })) as { leaseLost?: boolean };
    if (reply.leaseLost) throw new SagaLeaseLostError(key);
  }

  public async get(key: string): Promise<{ state: SagaState; expiresAt: number } | undefined> {
    return ((await this.send('read a saga run', { op: 'get', key })) as { run?: { state: SagaState; expiresAt: number } }).run;
  }

  private async send(operation: string, request: DevSagaRequest): Promise<DevSagaReply> {
    try {
      return (await this.call(DEV_SAGA_SERVICE, request)) as DevSagaReply;
    } catch (error) {
      throw new IdempotencyStoreError(operation, error);
    }
  }
}
