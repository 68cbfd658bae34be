/**
 * Persistence of saga runs. Like the idempotency stores, the logic lives once (in `saga.ts`); a backend only claims
 * a run's lease, saves its state under that lease and reads it back, translating SDK errors.
 */

/**
 * | status         | meaning                                                         | `run` with the same id         |
 * |----------------|-----------------------------------------------------------------|--------------------------------|
 * | `running`      | steps are running (or the run crashed while they were)          | resumes after the last completed step |
 * | `completed`    | every step ran                                                  | returns the stored outputs, runs nothing |
 * | `compensating` | a step failed; completed steps are being undone (or it crashed) | continues the compensation     |
 * | `compensated`  | a step failed and every completed step was undone               | throws `SagaFailedError` again, runs nothing |
 * | `failed`       | a step failed and a compensation failed too: needs attention    | retries the remaining compensations |
 */
export type SagaStatus = 'running' | 'completed' | 'compensating' | 'compensated' | 'failed';

export interface SagaStepOutcome {
  readonly step: string;
  /** What the step's `run` returned (JSON). */
  readonly output?: unknown;
}

export interface SagaFailure {
  readonly step: string;
  readonly name: string;
  readonly message: string;
}

export interface SagaState {
  readonly status: SagaStatus;
  readonly traceId?: string;
  /** The tenant the run was started for (`currentTenant()` at the start): every step and compensation runs as it. */
  readonly tenant?: string;
  /** Token of the invocation that started the run (tells a fresh run from a resumed one). */
  readonly startedBy?: string;
  /** Fingerprint of the input the run started with: the same id with another input is refused. */
  readonly inputFingerprint?: string;
  /** Steps whose `run` finished, in order. */
  readonly completed: readonly SagaStepOutcome[];
  /** Steps whose compensation finished. */
  readonly compensated: readonly string[];
  /** The step failure that started the compensation. */
  readonly failure?: SagaFailure;
  /** The compensation failure that left the run `failed`. */
  readonly compensationFailure?: SagaFailure;
  readonly startedAt: number;
  readonly updatedAt: number;
}

export type SagaClaim =
  | { readonly claimed: true; readonly state: SagaState; /** epoch s; in the past when the stored run had expired */ readonly expiresAt: number }
  | { readonly claimed: false; readonly leaseExpiresAt: number };

export interface SagaStore {
  /**
   * Takes the lease of run `key` for `owner` until `leaseExpiresAt` (epoch ms): creates the run with `initial` when
   * there is none, succeeds when the run's lease is over (a crashed run) or already `owner`'s. One request.
   */
  claim(key: string, owner: string, leaseExpiresAt: number, nowMs: number, initial: SagaState, expiresAt: number): Promise<SagaClaim>;
  /**
   * Saves the run's state if `owner` still holds the lease, and sets the lease end (0 releases it).
   * @throws SagaLeaseLostError when another run took the lease
   */
  save(key: string, owner: string, state: SagaState, leaseExpiresAt: number, expiresAt: number): Promise<void>;
  /** The stored state of run `key` (expired runs included: callers check `expiresAt`). */
  get(key: string): Promise<{ readonly state: SagaState; readonly expiresAt: number } | undefined>;
}

export type SagaStoreInput = SagaStore | Promise<SagaStore>;
