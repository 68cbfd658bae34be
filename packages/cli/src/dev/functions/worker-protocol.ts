/**
 * Messages between the dev server (main thread) and a function worker. A result is what Lambda's JSON serialization
 * gives, so what a handler returns locally is exactly what the gateway would see: a plain JSON value (the usual
 * structured response) is cloned as is, anything else travels as JSON text.
 */
import type { AuthMethod } from '@framework/core';

/** Main → worker: load a compiled handler with the function's environment. */
export interface LoadMessage {
  readonly type: 'load';
  /** Absolute path of the compiled bundle. */
  readonly bundle: string;
  /** The function's whole environment (replaces the worker's). */
  readonly env: Readonly<Record<string, string>>;
  readonly functionName: string;
  readonly memorySize: number;
  /** Seconds. */
  readonly timeout: number;
}

/** Main → worker: run the handler once, with `event`, or the event as JSON text (`EventText`). */
export type InvokeMessage = InvokeFields & ({ readonly event: unknown; readonly eventJson?: undefined } | { readonly eventJson: string });

interface InvokeFields {
  readonly type: 'invoke';
  readonly id: number;
  readonly requestId: string;
  /** Epoch ms after which the invocation times out (for `context.getRemainingTimeInMillis`). */
  readonly deadline: number;
}

/** Main → worker: the answer to a `service-call` (the value, or why the service failed). */
export type ServiceReplyMessage =
  | { readonly type: 'service-reply'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: 'service-reply'; readonly id: number; readonly ok: false; readonly errorMessage: string };

/**
 * Main → a thread not given a function yet. To an early thread (`startEarlyThread`), once: the functions' environment
 * (replaces the thread's empty one) and the packages to import before it says it booted. To a thread that booted
 * bare (the first spare, whose preload waits for the server: `firstPreloadAfter`): the packages only, imported now.
 */
export interface PreloadMessage {
  readonly type: 'preload';
  /** Absent: the thread keeps its environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** The preload module; none: the thread boots bare. */
  readonly file?: string;
}

export type ToWorker = LoadMessage | InvokeMessage | ServiceReplyMessage | PreloadMessage;

/** What a handler module says about itself (`main.handlerInfo`, set by the runtime's `handler()`), as the dev server needs it. */
export interface LoadedHandlerInfo {
  readonly kind?: string;
  readonly scopes: readonly string[];
  /** How callers may authenticate (`auth: ['jwt', 'apiKey']`); absent: a bearer token only. */
  readonly auth?: readonly AuthMethod[];
}

export type FromWorker =
  | { readonly type: 'booted' }
  | { readonly type: 'ready'; readonly info: LoadedHandlerInfo }
  | { readonly type: 'load-error'; readonly errorType: string; readonly errorMessage: string; readonly stack?: string }
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly json: string }
  /** A result that JSON would not change (see `plainJsonSizeBound`), structured-cloned. */
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly errorType: string; readonly errorMessage: string; readonly stack?: string }
  /** The handler holds more than its memorySize; the thread ends right after (its invocations fail as out of memory). */
  | { readonly type: 'out-of-memory'; readonly usedBytes: number }
  /** A handler calls a service of the dev server (the shared idempotency store); answered by `service-reply`. */
  | { readonly type: 'service-call'; readonly id: number; readonly service: string; readonly request: unknown };
