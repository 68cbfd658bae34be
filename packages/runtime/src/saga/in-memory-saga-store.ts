import { SagaLeaseLostError } from '../idempotency/errors.js';
import { encodeStoredData } from '../idempotency/private/stored-data.js';
import type { SagaClaim, SagaState, SagaStore } from './saga-store.js';

interface StoredRun {
  state: SagaState;
  owner: string;
  leaseExpiresAt: number;
  expiresAt: number;
}

/** Local-development saga store: a Map; states are copied through JSON so nothing is shared with the caller. */
export class InMemorySagaStore implements SagaStore {
  private readonly runs = new Map<string, StoredRun>();

  public async claim(key: string, owner: string, leaseExpiresAt: number, nowMs: number, initial: SagaState, expiresAt: number): Promise<SagaClaim> {
    const run = this.runs.get(key);
    if (!run) {
      this.runs.set(key, { state: copy(initial), owner, leaseExpiresAt, expiresAt });
      return { claimed: true, state: copy(initial), expiresAt };
    }
    const expired = run.expiresAt * 1000 <= nowMs;
    if (!expired && run.owner !== owner && run.leaseExpiresAt > nowMs) return { claimed: false, leaseExpiresAt: run.leaseExpiresAt };
    run.owner = owner;
    run.leaseExpiresAt = leaseExpiresAt;
    return { claimed: true, state: copy(run.state), expiresAt: run.expiresAt };
  }

  public async save(key: string, owner: string, state: SagaState, leaseExpiresAt: number, expiresAt: number): Promise<void> {
    const run = this.runs.get(key);
    if (!run || run.owner !== owner) throw new SagaLeaseLostError(key);
    // The same size limit as DynamoDB, so a state too large for the cloud fails here too.
    encodeStoredData(JSON.stringify(state));
    run.state = copy(state);
    run.leaseExpiresAt = leaseExpiresAt;
    run.expiresAt = expiresAt;
  }

  public async get(key: string): Promise<{ state: SagaState; expiresAt: number } | undefined> {
    const run = this.runs.get(key);
    return run ? { state: copy(run.state), expiresAt: run.expiresAt } : undefined;
  }
}

function copy(state: SagaState): SagaState {
  return JSON.parse(JSON.stringify(state)) as SagaState;
}

export function createInMemorySagaStore(): InMemorySagaStore {
  return new InMemorySagaStore();
}
