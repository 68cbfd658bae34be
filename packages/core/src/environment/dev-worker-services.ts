/**
 * `fw dev` only: how a function's worker thread reaches services of the dev server (its idempotency store) without a
 * network port. The worker sets `globalThis[Symbol.for(DEV_WORKER_SERVICES_KEY)]` to a `DevWorkerServiceCall` before
 * it loads a handler; the runtime uses it when `FW_DEV_ENDPOINT` is set. Never present in a deployed function. An
 * intent kind names its own services in its module (`DEV_WS_SERVICE` in `intents/ws.ts`), not here.
 */
export const DEV_WORKER_SERVICES_KEY = '@framework/dev.worker-services';

/** Calls a service of the dev server by name; `request` and the answer are structured-cloned between threads. */
export type DevWorkerServiceCall = (service: string, request: unknown) => Promise<unknown>;

/** The dev server's idempotency store (shared by every function, persisted under `.fw/idempotency/`). */
export const DEV_IDEMPOTENCY_SERVICE = 'idempotency';

/**
 * The dev server's saga store (shared by every function, in memory): a run outlives the worker that crashed in it,
 * its leases follow the dev server's clock (a test's `clock.advance` ends them), and its steps show in the clock's
 * trace.
 */
export const DEV_SAGA_SERVICE = 'saga';
