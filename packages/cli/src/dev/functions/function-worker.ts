/**
 * The worker-thread side of a local function: boots empty (so a spare can be kept warm), then on `load` takes the
 * function's environment, imports its compiled bundle once and runs invocations like a Lambda instance would.
 * A throw at import, `process.exit` or a hang only ends this thread; the dev server replaces it.
 */
import * as v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { DEV_WORKER_SERVICES_KEY, functionLogGroupName, handlerInfoOf, type DevWorkerServiceCall } from '@framework/core/names';
import { SYNC_RESPONSE_LIMIT_BYTES, describeBytes } from '../limits/payload-limits.js';
import { plainJsonSizeBound } from './plain-json-value.js';
import type { FromWorker, InvokeMessage, LoadMessage, ServiceReplyMessage, ToWorker } from './worker-protocol.js';

type LambdaHandler = (event: unknown, context: unknown) => unknown;

const port = parentPort;
if (!port) throw new Error('function-worker must run in a worker thread');
process.setSourceMapsEnabled(true);

let handler: LambdaHandler | undefined;
let loaded: LoadMessage | undefined;

function post(message: FromWorker): void {
  port!.postMessage(message);
}

// Calls to the dev server's services (its idempotency store), answered by the main thread. Installed before any
// handler loads, so the runtime finds it when a handler module creates its store at import.
const serviceCalls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextServiceCall = 1;
const callService: DevWorkerServiceCall = (service, request) =>
  new Promise((resolve, reject) => {
    const id = nextServiceCall++;
    serviceCalls.set(id, { resolve, reject });
    post({ type: 'service-call', id, service, request });
  });
(globalThis as Record<symbol, unknown>)[Symbol.for(DEV_WORKER_SERVICES_KEY)] = callService;

function answerService(message: ServiceReplyMessage): void {
  const call = serviceCalls.get(message.id);
  if (!call) return;
  serviceCalls.delete(message.id);
  if (message.ok) call.resolve(message.value);
  else call.reject(new Error(message.errorMessage));
}

function describe(error: unknown): { errorType: string; errorMessage: string; stack?: string } {
  if (error instanceof Error) return { errorType: error.name || 'Error', errorMessage: error.message, stack: error.stack };
  return { errorType: 'Error', errorMessage: typeof error === 'string' ? error : JSON.stringify(error) ?? String(error) };
}

async function load(message: LoadMessage): Promise<void> {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, message.env);
  loaded = message;
  try {
    const mod = (await import(pathToFileURL(message.bundle).href)) as { main?: unknown };
    if (typeof mod.main !== 'function') {
      post({ type: 'load-error', errorType: 'Runtime.HandlerNotFound', errorMessage: `the file does not export a function "main" (export const main = handler(...))` });
      return;
    }
    handler = mod.main as LambdaHandler;
    const info = handlerInfoOf(mod.main);
    post({ type: 'ready', info: { kind: info?.kind, scopes: info?.scopes ?? [], ...(info?.auth ? { auth: info.auth } : {}) } });
  } catch (error) {
    post({ type: 'load-error', ...describe(error) });
  }
}

async function invoke(message: InvokeMessage): Promise<void> {
  const fn = loaded!;
  const context = {
    functionName: fn.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:function:${fn.functionName}`,
    memoryLimitInMB: String(fn.memorySize),
    awsRequestId: message.requestId,
    logGroupName: functionLogGroupName(fn.functionName),
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, message.deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  if (inFlight++ === 0) watchMemory();
  let result: FromWorker;
  try {
    const value = await handler!(message.eventJson !== undefined ? JSON.parse(message.eventJson) : message.event, context);
    // A plain result (the usual `{ statusCode, headers, body }`) is cloned as is: the same value Lambda's JSON
    // round trip would give, without serializing it twice.
    result = plainJsonSizeBound(value, SYNC_RESPONSE_LIMIT_BYTES) === undefined ? resultMessage(message.id, JSON.stringify(value ?? null)) : { type: 'result', id: message.id, ok: true, value };
  } catch (error) {
    result = { type: 'result', id: message.id, ok: false, ...describe(error) };
  } finally {
    if (--inFlight === 0) unwatchMemory();
  }
  // Lambda counts every byte of the function's memory; the heap limit of this thread covers only JS objects, so
  // buffers are counted here, before the answer leaves.
  if (!checkMemory()) post(result);
}

/** A result over Lambda's response limit fails the invocation, as Lambda fails it (the gateway then answers 500). */
function resultMessage(id: number, json: string): FromWorker {
  // A JS string's length bounds its UTF-8 size from below and a third of it from above: measure only when it matters.
  const bytes = json.length * 3 > SYNC_RESPONSE_LIMIT_BYTES ? Buffer.byteLength(json) : json.length;
  if (bytes <= SYNC_RESPONSE_LIMIT_BYTES) return { type: 'result', id, ok: true, json };
  return {
    type: 'result',
    id,
    ok: false,
    errorType: 'Function.ResponseSizeTooLarge',
    errorMessage: `Response payload size exceeded maximum allowed payload size (${SYNC_RESPONSE_LIMIT_BYTES} bytes).`,
    stack:
      `Function.ResponseSizeTooLarge: the result is ${describeBytes(bytes)}, over Lambda's 6 MB limit for a synchronous response (${SYNC_RESPONSE_LIMIT_BYTES} bytes); ` +
      'deployed, the invocation fails and the gateway answers 500. Return less (page the results), or put large content in storage and return its URL.',
  };
}

let inFlight = 0;
let outOfMemory = false;

/**
 * Ends this thread, as Lambda ends a function, when the handler holds more than its memorySize (JS heap plus buffers
 * and other memory outside the heap, counted for this thread only). Returns whether it did.
 */
function checkMemory(): boolean {
  if (outOfMemory) return true;
  if (!loaded) return false;
  // v8's own figures, not process.memoryUsage(): the same heap and external bytes without reading the process's
  // resident size from /proc (about 12 µs against 0.6 µs, paid after every invocation).
  const { used_heap_size: heapUsed, external_memory: external } = v8.getHeapStatistics();
  const used = heapUsed + external;
  if (used <= loaded.memorySize * 1024 * 1024) return false;
  outOfMemory = true;
  post({ type: 'out-of-memory', usedBytes: used });
  process.exit(1);
}

// Memory taken between two awaits of a long invocation is seen without waiting for its end. The timer runs only while
// an invocation is in flight: an idle thread (fw dev keeps one per loaded function, and spares) is never woken, where
// a timer per thread ten times a second cost the CPU of every request served meanwhile.
let memoryTimer: NodeJS.Timeout | undefined;
function watchMemory(): void {
  memoryTimer = setInterval(checkMemory, 100);
  memoryTimer.unref();
}
function unwatchMemory(): void {
  clearInterval(memoryTimer);
  memoryTimer = undefined;
}

// A rejection nobody awaited is logged, as Lambda's Node runtime logs it, instead of ending the thread.
process.on('unhandledRejection', (reason) => {
  console.error(`[${loaded?.functionName ?? 'worker'}] unhandled rejection:`, reason);
});

port.on('message', (message: ToWorker) => {
  if (message.type === 'load') void load(message);
  else if (message.type === 'service-reply') answerService(message);
  else if (message.type === 'preload') preloadThenBoot(message.file, message.env);
  else void invoke(message);
});

// A spare thread imports the packages the handlers use (never project code, which changes) while it waits, so
// loading a handler after an edit costs only the handler's own bundle.
// The preload is only a head start: a package whose import hangs must not keep the thread from taking a handler (the
// handler's own import then meets the same package, and the dev server's init limit ends it).
const PRELOAD_LIMIT_MS = 3_000;
function preloadThenBoot(preload: string | undefined, env?: Readonly<Record<string, string>>): void {
  if (env) {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, env);
  }
  if (!preload) {
    post({ type: 'booted' });
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  void Promise.race([import(pathToFileURL(preload).href).catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, PRELOAD_LIMIT_MS)))]).then(() => {
    clearTimeout(timer);
    post({ type: 'booted' });
  });
}
// An early thread (started before fw dev knew the functions' environment) waits for its `preload` message.
const data = workerData as { preload?: string; preloadByMessage?: boolean } | undefined;
if (!data?.preloadByMessage) preloadThenBoot(data?.preload);
