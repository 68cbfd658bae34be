import type { DevSagaRequest, DevSagaReply, SagaState } from '@framework/runtime';
import { InMemorySagaStore } from '@framework/runtime/dev-server';
import type { DevClock } from '../clock/index.js';

/**
 * The saga runs of `fw dev`, kept by the dev server for every function (in memory: a run outlives the worker thread
 * that crashed in it, not `fw dev` itself). Leases are measured on the dev server's clock: a function asks for a
 * lease of so many milliseconds, and the lease ends when the engines' clock has moved that far (the machine's clock
 * under `fw dev`; the test's under `@framework/testing`, so a redelivery that `drain()` moves past a visibility
 * timeout finds the crashed run's lease over and resumes it). Every step a run completes, fails or compensates is
 * noted in the clock's trace (`kind: 'saga'`, id `<saga>/<step>`, `<saga>/<step>/compensate` for an undo).
 */
export class DevSagaStore {
  private readonly runs = new InMemorySagaStore();

  constructor(private readonly clock: DevClock) {}

  async serve(request: DevSagaRequest): Promise<DevSagaReply> {
    const now = this.clock.now();
    switch (request.op) {
      case 'claim': {
        const claim = await this.runs.claim(request.key, request.owner, now + request.leaseMs, now, request.initial, request.expiresAt);
        return claim.claimed ? claim : { claimed: false, leaseLeftMs: Math.max(0, claim.leaseExpiresAt - now) };
      }
      case 'save': {
        const before = (await this.runs.get(request.key))?.state;
        try {
          await this.runs.save(request.key, request.owner, request.state, request.leaseMs === 0 ? 0 : now + request.leaseMs, request.expiresAt);
        } catch {
          return { leaseLost: true };
        }
        this.trace(request.key, before, request.state);
        return {};
      }
      case 'get': {
        const run = await this.runs.get(request.key);
        return run ? { run } : {};
      }
    }
  }

  /** What changed between two saves of a run, as trace entries. */
  private trace(key: string, before: SagaState | undefined, after: SagaState): void {
    // Keys are `saga#<name>#<run id>` (see saga.ts).
    const saga = key.split('#')[1] ?? key;
    const done = new Set((before?.completed ?? []).map((c) => c.step));
    for (const outcome of after.completed) if (!done.has(outcome.step)) this.clock.record({ kind: 'saga', id: `${saga}/${outcome.step}`, ok: true });
    if (after.failure && !before?.failure) this.clock.record({ kind: 'saga', id: `${saga}/${after.failure.step}`, ok: false, error: `${after.failure.name}: ${after.failure.message}` });
    const undone = new Set(before?.compensated ?? []);
    for (const step of after.compensated) if (!undone.has(step)) this.clock.record({ kind: 'saga', id: `${saga}/${step}/compensate`, ok: true });
    if (after.compensationFailure && !before?.compensationFailure) {
      this.clock.record({ kind: 'saga', id: `${saga}/${after.compensationFailure.step}/compensate`, ok: false, error: `${after.compensationFailure.name}: ${after.compensationFailure.message}` });
    }
  }
}
