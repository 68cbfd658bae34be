import * as path from 'node:path';
import { DEV_IDEMPOTENCY_SERVICE, DEV_SAGA_SERVICE } from '@framework/core';
import type { DevIdempotencyRequest, DevSagaRequest } from '@framework/runtime';
import { DevClock } from '../clock/index.js';
import type { DevSagaStore } from '../idempotency/dev-saga-store.js';
import type { PersistentIdempotencyStore } from '../idempotency/persistent-idempotency-store.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

/**
 * The idempotency store of `fw dev`: one for every function, in the dev server, persisted under
 * `.fw/idempotency/records.jsonl`. Functions reach it through their worker (`createDefaultIdempotencyStore` picks it
 * when `FW_DEV_ENDPOINT` is set), so a retry after an edit, a crash, a timeout or a restart of `fw dev` replays
 * instead of running the handler again. `FW_IDEMPOTENCY_TABLE` is the model's fixed value, the stage's table name as
 * deployed (`<project>-<stage>-idempotency`): a handler that reads it sees the same name locally and deployed.
 */
export class PersistentIdempotencyEngine implements DevEngine {
  readonly intent = 'idempotency' as const;
  readonly kind = 'embedded' as const;
  private store?: PersistentIdempotencyStore;

  async start(_app: unknown, context: DevContext): Promise<EngineStart> {
    const file = path.join(context.dataDir, 'idempotency', 'records.jsonl');
    // Loaded here, not at the top: the stores bring @framework/runtime, which `fw dev` otherwise needs only later.
    const [{ PersistentIdempotencyStore }, { DevSagaStore }] = await Promise.all([import('../idempotency/persistent-idempotency-store.js'), import('../idempotency/dev-saga-store.js')]);
    const store = await PersistentIdempotencyStore.open(file, Date.now(), (problem) => context.log.warn(`idempotency: ${problem}`));
    this.store = store;
    const sagas: DevSagaStore = new DevSagaStore(context.clock ?? new DevClock());
    return {
      outputs: {},
      summary: [`default: ${path.relative(context.rootDir, file)} (${store.size} records, shared by every function)`],
      // Saga runs (same store, as deployed: the idempotency table) in memory, on the engines' clock.
      workerServices: { [DEV_IDEMPOTENCY_SERVICE]: (request) => store.serve(request as DevIdempotencyRequest), [DEV_SAGA_SERVICE]: (request) => sagas.serve(request as DevSagaRequest) },
    };
  }

  async stop(): Promise<void> {
    await this.store?.close();
  }
}

export const persistentIdempotency: EngineFactory = {
  intent: 'idempotency',
  kind: 'embedded',
  label: 'journal under .fw/idempotency (shared by every function)',
  isAvailable: async () => true,
  isNeeded: () => true,
  create: () => new PersistentIdempotencyEngine(),
};
