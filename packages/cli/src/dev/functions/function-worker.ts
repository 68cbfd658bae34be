/**
 * The worker-thread side of a local function: boots empty (so a spare can be kept warm), then on `load` takes the
 * function's environment, imports its compiled bundle once and runs invocations like a Lambda instance would.
 * A throw at import, `process.exit` or a hang only ends this thread; the dev server replaces it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { FromWorker, InvokeMessage, LoadMessage, ToWorker } from './worker-protocol.js';

type LambdaHandler = (event: unknown, context: unknown) => unknown;

const port = parentPort;
if (!port) throw new Error('function-worker must run in a worker thread');
process.setSourceMapsEnabled(true);

let handler: LambdaHandler | undefined;
let loaded: LoadMessage | undefined;

function post(message: FromWorker): void {
  port!.postMessage(message);
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
    const info = (mod.main as { handlerInfo?: { kind?: unknown; scopes?: unknown } }).handlerInfo;
    const scopes = Array.isArray(info?.scopes) ? info.scopes.filter((s): s is string => typeof s === 'string') : [];
    post({ type: 'ready', info: { kind: typeof info?.kind === 'string' ? info.kind : undefined, scopes } });
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
    logGroupName: `/aws/lambda/${fn.functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, message.deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  try {
    const value = await handler!(message.event, context);
    post({ type: 'result', id: message.id, ok: true, json: JSON.stringify(value ?? null) });
  } catch (error) {
    post({ type: 'result', id: message.id, ok: false, ...describe(error) });
  }
}

// A rejection nobody awaited is logged, as Lambda's Node runtime logs it, instead of ending the thread.
process.on('unhandledRejection', (reason) => {
  console.error(`[${loaded?.functionName ?? 'worker'}] unhandled rejection:`, reason);
});

port.on('message', (message: ToWorker) => {
  if (message.type === 'load') void load(message);
  else void invoke(message);
});

// A spare thread imports the packages the handlers use (never project code, which changes) while it waits, so
// loading a handler after an edit costs only the handler's own bundle.
// The preload is only a head start: a package whose import hangs must not keep the thread from taking a handler (the
// handler's own import then meets the same package, and the dev server's init limit ends it).
const PRELOAD_LIMIT_MS = 3_000;
const preload = (workerData as { preload?: string } | undefined)?.preload;
if (preload) {
  let timer: NodeJS.Timeout | undefined;
  void Promise.race([import(pathToFileURL(preload).href).catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, PRELOAD_LIMIT_MS)))]).then(() => {
    clearTimeout(timer);
    post({ type: 'booted' });
  });
} else {
  post({ type: 'booted' });
}
