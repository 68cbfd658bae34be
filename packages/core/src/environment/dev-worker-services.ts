/**
 * `fw dev` only: how a function's worker thread reaches services of the dev server (its idempotency store) without a
 * network port. The worker sets `globalThis[Symbol.for(DEV_WORKER_SERVICES_KEY)]` to a `DevWorkerServiceCall` before
 * it loads a handler; the runtime uses it when `FW_DEV_ENDPOINT` is set. Never present in a deployed function.
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

/** The dev server's WebSocket connection registry (connections, topics; in memory: connections end with `fw dev`). */
export const DEV_WS_REGISTRY_SERVICE = 'ws-registry';

/**
 * The dev server's WebSocket API: `service.ws` sends and closes through it from a function's thread, the work the
 * deployed function does through the `@connections` management API over HTTPS (which the dev server also serves).
 */
export const DEV_WS_SERVICE = 'ws';

/** One `@connections` operation sent to the dev server's WebSocket API. */
export type DevWsRequest = { readonly op: 'send'; readonly connectionId: string; readonly data: Uint8Array } | { readonly op: 'disconnect'; readonly connectionId: string };

/** Its answer: what the management API would have answered (200, 410 Gone, 413 Payload Too Large). */
export interface DevWsReply {
  readonly result: 'sent' | 'closed' | 'gone' | 'too-large';
}
