import { randomUUID } from 'node:crypto';
import { IdempotencyKeyReusedError, SagaCompensationFailedError, SagaDefinitionError, SagaFailedError, SagaInProgressError } from '../idempotency/errors.js';
import { valueFingerprint } from '../idempotency/fingerprint.js';
import { remainingTimeOf } from '../idempotency/idempotent-execution.js';
import { currentTenant, runWithTenant } from '../context/tenant.js';
import type { SagaFailure, SagaState, SagaStatus, SagaStore, SagaStoreInput } from './saga-store.js';

export interface SagaStepContext {
  /** The run's id (`run(input, { id })`). */
  readonly sagaId: string;
  readonly traceId?: string;
  /** The tenant the run was started for, which the step runs as (`currentTenant()`); undefined: none. */
  readonly tenant?: string;
  readonly step: string;
  /**
   * `<sagaId>:<step>`: send it as the idempotency key of the step's remote call. A step interrupted by a crash runs
   * again on resume; with this key the remote side does its work once.
   */
  readonly idempotencyKey: string;
  /** Outputs of the steps completed so far, by step name. */
  readonly outputs: Readonly<Record<string, unknown>>;
}

export interface SagaStep<TInput> {
  /** Unique in the saga; stored with the progress, so renaming a step breaks resuming runs in flight. */
  readonly name: string;
  /** Does the step's work; its return value (JSON) is stored and passed to `compensate`. */
  run(input: TInput, context: SagaStepContext): Promise<unknown> | unknown;
  /** Undoes the step after a later step failed. Omit for steps with nothing to undo (reads, notifications). */
  compensate?(input: TInput, output: unknown, context: SagaStepContext): Promise<void> | void;
}

export interface SagaOptions {
  /** Where runs are kept: `createDefaultSagaStore()` (a promise is fine), the DynamoDB or the in-memory store. */
  readonly store: SagaStoreInput;
  /**
   * How long a run's record is kept (a re-run with the same id within it replays or resumes), seconds.
   * @default 604800 (7 days)
   */
  readonly ttlSeconds?: number;
  /**
   * Lease of a run when no Lambda context is given to `run`, renewed at every step; a crashed run can be resumed
   * once it is over. Keep it above the longest step.
   * @default 900
   */
  readonly leaseSeconds?: number;
  /** @default Date.now */
  readonly clock?: () => number;
}

export interface SagaRunOptions {
  /** The run's id; an idempotency key is a good one. Re-running an id resumes or replays that run. */
  readonly id: string;
  readonly traceId?: string;
  /** The invocation's Lambda context: the lease then ends with the invocation. @default - leaseSeconds */
  readonly lambdaContext?: unknown;
}

export interface SagaResult {
  readonly id: string;
  readonly status: 'completed';
  /** Each step's output, by step name. */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** True when this call ran nothing: the run had completed before. */
  readonly replayed: boolean;
  /** True when this call continued a run that an earlier invocation had started. */
  readonly resumed: boolean;
}

export interface Saga<TInput> {
  readonly name: string;
  readonly steps: readonly SagaStep<TInput>[];
  /**
   * Runs the steps in order, persisting progress after each; on a failure compensates the completed steps in
   * reverse and throws `SagaFailedError` (or `SagaCompensationFailedError` when a compensation fails too).
   */
  run(input: TInput, options: SagaRunOptions): Promise<SagaResult>;
  /** The stored state of a run, or undefined. */
  state(id: string): Promise<SagaState | undefined>;
}

const DEFAULT_SAGA_TTL_SECONDS = 7 * 86_400;
const DEFAULT_SAGA_LEASE_SECONDS = 900;

/**
 * A saga: steps with compensations, run at most once per id, resumable after a crash.
 *
 * @example
 * const placeOrder = saga('place-order', [
 *   { name: 'reserve', run: (o) => stock.reserve(o), compensate: (o, r) => stock.release(r) },
 *   { name: 'charge', run: (o, c) => payments.charge(o, { idempotencyKey: c.idempotencyKey }), compensate: (o, p) => payments.refund(p) },
 * ], { store: createDefaultSagaStore() });
 * await placeOrder.run(order, { id: idempotencyKey, traceId });
 */
export function saga<TInput>(name: string, steps: readonly SagaStep<TInput>[], options: SagaOptions): Saga<TInput> {
  if (!name || /[#\s]/.test(name)) throw new SagaDefinitionError(`saga id ${JSON.stringify(name)} must be non-empty, without spaces or "#".`);
  if (!Array.isArray(steps) || steps.length === 0) throw new SagaDefinitionError(`saga ${JSON.stringify(name)} has no steps.`);
  const seen = new Set<string>();
  for (const step of steps) {
    if (!step || !step.name || typeof step.run !== 'function') throw new SagaDefinitionError(`saga ${JSON.stringify(name)}: every step needs a name and a run function.`);
    if (seen.has(step.name)) throw new SagaDefinitionError(`saga ${JSON.stringify(name)}: step name ${JSON.stringify(step.name)} is used twice.`);
    seen.add(step.name);
  }
  if (!options || options.store === undefined || options.store === null) throw new SagaDefinitionError(`saga ${JSON.stringify(name)}: \`store\` is required, e.g. { store: createDefaultSagaStore() }.`);
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_SAGA_TTL_SECONDS;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_SAGA_LEASE_SECONDS;
  if (!(ttlSeconds > 0) || !(leaseSeconds > 0)) throw new SagaDefinitionError(`saga ${JSON.stringify(name)}: ttlSeconds and leaseSeconds must be positive.`);
  const clock = options.clock ?? Date.now;
  const storePromise = Promise.resolve(options.store);
  storePromise.catch(() => undefined);
  const keyOf = (id: string) => `saga#${name}#${id}`;

  return {
    name,
    steps,
    async state(id) {
      const stored = await (await storePromise).get(keyOf(id));
      return stored && stored.expiresAt * 1000 > clock() ? stored.state : undefined;
    },
    async run(input, runOptions) {
      if (!runOptions || !runOptions.id) throw new SagaDefinitionError(`saga ${JSON.stringify(name)}: run(input, { id }) needs an id.`);
      const store = await storePromise;
      const run = new SagaRun(store, name, steps, input, runOptions, keyOf(runOptions.id), clock, ttlSeconds, leaseSeconds);
      return run.execute();
    },
  };
}

/** One call of `run`: holds the lease and the state, and writes the state after every change. */
class SagaRun<TInput> {
  private readonly owner = randomUUID();
  private state!: SagaState;

  constructor(
    private readonly store: SagaStore,
    private readonly sagaName: string,
    private readonly steps: readonly SagaStep<TInput>[],
    private readonly input: TInput,
    private readonly options: SagaRunOptions,
    private readonly key: string,
    private readonly clock: () => number,
    private readonly ttlSeconds: number,
    private readonly leaseSeconds: number,
  ) {}

  public async execute(): Promise<SagaResult> {
    const now = this.clock();
    const fingerprint = valueFingerprint(this.input);
    const callerTenant = currentTenant()?.id;
    const initial: SagaState = {
      status: 'running',
      startedBy: this.owner,
      ...(this.options.traceId !== undefined ? { traceId: this.options.traceId } : {}),
      ...(callerTenant !== undefined ? { tenant: callerTenant } : {}),
      inputFingerprint: fingerprint,
      completed: [],
      compensated: [],
      startedAt: now,
      updatedAt: now,
    };
    const claim = await this.store.claim(this.key, this.owner, this.leaseEnd(now), now, initial, this.expiresAt(now));
    if (!claim.claimed) throw new SagaInProgressError(this.options.id, Math.max(1, Math.ceil((claim.leaseExpiresAt - now) / 1000)));
    let resumed = true;
    if (claim.expiresAt * 1000 <= now) {
      // The stored run outlived its TTL: start over.
      this.state = initial;
      await this.save();
      resumed = false;
    } else {
      this.state = claim.state;
      resumed = this.state.startedBy !== this.owner;
    }
    // Another tenant's run is another input: a tenant can neither resume nor read another's. A caller outside any
    // tenant (a sweeper resuming stuck runs) may resume it: the steps run as the run's tenant all the same.
    const mismatchedTenant = callerTenant !== undefined && this.state.tenant !== callerTenant;
    if (mismatchedTenant || (this.state.inputFingerprint !== undefined && this.state.inputFingerprint !== fingerprint)) {
      await this.release();
      throw new IdempotencyKeyReusedError(this.options.id);
    }

    switch (this.state.status) {
      case 'completed':
        await this.release();
        return { id: this.options.id, status: 'completed', outputs: this.outputs(), replayed: true, resumed: false };
      case 'compensated': {
        await this.release();
        const failure = this.state.failure;
        throw new SagaFailedError(this.options.id, failure?.step ?? '?', describe(failure), revive(failure));
      }
      case 'compensating':
      case 'failed':
        return this.compensate();
      case 'running':
        return this.forward(resumed);
    }
  }

  private async forward(resumed: boolean): Promise<SagaResult> {
    for (let index = this.state.completed.length; index < this.steps.length; index++) {
      const step = this.steps[index]!;
      let output: unknown;
      try {
        output = await this.asRunTenant(() => step.run(this.input, this.context(step.name)));
      } catch (error) {
        this.update({ status: 'compensating', failure: failureOf(step.name, error) });
        await this.save();
        return this.compensate(error);
      }
      this.update({ completed: [...this.state.completed, { step: step.name, ...(output !== undefined ? { output } : {}) }] });
      await this.save();
    }
    this.update({ status: 'completed' });
    await this.save(0);
    return { id: this.options.id, status: 'completed', outputs: this.outputs(), replayed: false, resumed };
  }

  private async compensate(cause?: unknown): Promise<never> {
    if (this.state.status === 'failed') this.update({ status: 'compensating' });
    const done = new Set(this.state.compensated);
    for (const outcome of [...this.state.completed].reverse()) {
      if (done.has(outcome.step)) continue;
      const step = this.steps.find((s) => s.name === outcome.step);
      try {
        await this.asRunTenant(() => step?.compensate?.(this.input, outcome.output, this.context(outcome.step)));
      } catch (error) {
        this.update({ status: 'failed', compensationFailure: failureOf(outcome.step, error) });
        await this.save(0);
        const failed = this.state.failure;
        throw new SagaCompensationFailedError(this.options.id, failed?.step ?? '?', outcome.step, describe(failureOf(outcome.step, error)), error);
      }
      this.update({ compensated: [...this.state.compensated, outcome.step] });
      await this.save();
    }
    const { compensationFailure: _cleared, ...rest } = this.state;
    this.state = { ...rest, status: 'compensated', updatedAt: this.clock() };
    await this.save(0);
    const failure = this.state.failure;
    throw new SagaFailedError(this.options.id, failure?.step ?? '?', describe(failure), cause ?? revive(failure));
  }

  /**
   * Runs a step (or a compensation) as the tenant the run was started for, whoever resumes it: its statements, keys,
   * messages and log lines are that tenant's, as they were in the invocation that started it.
   */
  private asRunTenant<T>(fn: () => T): T {
    const tenant = this.state.tenant;
    return runWithTenant(tenant === undefined ? undefined : { id: tenant }, fn);
  }

  private context(step: string): SagaStepContext {
    return {
      sagaId: this.options.id,
      ...(this.options.traceId !== undefined ? { traceId: this.options.traceId } : {}),
      ...(this.state.tenant !== undefined ? { tenant: this.state.tenant } : {}),
      step,
      idempotencyKey: `${this.options.id}:${step}`,
      outputs: this.outputs(),
    };
  }

  private outputs(): Record<string, unknown> {
    return Object.fromEntries(this.state.completed.map((c) => [c.step, c.output]));
  }

  private update(change: Partial<SagaState>): void {
    this.state = { ...this.state, ...change, updatedAt: this.clock() };
  }

  /** Persists the state and renews the lease (`leaseEnd` 0 releases it: the run is over). */
  private async save(leaseEnd?: number): Promise<void> {
    const now = this.clock();
    await this.store.save(this.key, this.owner, this.state, leaseEnd ?? this.leaseEnd(now), this.expiresAt(now));
  }

  private async release(): Promise<void> {
    await this.save(0);
  }

  private leaseEnd(now: number): number {
    const remaining = remainingTimeOf(this.options.lambdaContext);
    return now + (remaining !== undefined ? Math.max(0, remaining) : this.leaseSeconds * 1000);
  }

  private expiresAt(now: number): number {
    return Math.floor(now / 1000) + this.ttlSeconds;
  }
}

function failureOf(step: string, error: unknown): SagaFailure {
  return error instanceof Error ? { step, name: error.name, message: error.message } : { step, name: 'Error', message: String(error) };
}

function describe(failure: SagaFailure | undefined): string {
  return failure ? `${failure.name}: ${failure.message}` : 'unknown failure';
}

/** The stored failure as an Error, for a replayed `compensated` run whose original error object is gone. */
function revive(failure: SagaFailure | undefined): Error | undefined {
  if (!failure) return undefined;
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

export type { SagaStatus };
