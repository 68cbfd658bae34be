import { DEV_PATHS } from '@framework/core/names';
import { InvokeError, RuntimeError } from '../errors.js';
import type { FunctionId, FunctionPayload, FunctionResult } from '../register/register.js';
import { deployedFunctionName, devEndpoint } from './function-name.js';

/**
 * Which function to call: the id is its path below `src/functions/` without extension (`reports/daily`). With the
 * generated `.fw/types` only the app's ids compile.
 */
export interface InvokeTarget<F extends string = FunctionId> {
  readonly function: F;
}

export interface InvokeOptions<F extends string = FunctionId> {
  /**
   * The event the function receives (JSON-serializable): typed by the event type of the function's `main`
   * (`taskHandler<TEvent>`) when the generated `.fw/types` knows the function.
   * @default null
   */
  readonly payload?: FunctionPayload<F>;
  /**
   * `sync` waits and returns the function's result; `async` queues the invocation (fire-and-forget) and returns
   * once Lambda (or the dev server) accepted it.
   * @default 'sync'
   */
  readonly mode?: 'sync' | 'async';
}

/** Lambda's error payload for a function that threw. */
interface FunctionErrorPayload {
  errorType?: string;
  errorMessage?: string;
}

function remoteError(name: string, text: string): InvokeError {
  let payload: FunctionErrorPayload = {};
  try {
    payload = JSON.parse(text) as FunctionErrorPayload;
  } catch {
    payload = { errorMessage: text };
  }
  return new InvokeError(name, payload.errorType ?? 'Error', payload.errorMessage ?? '');
}

function parseResult(text: string): unknown {
  return text === '' ? undefined : JSON.parse(text);
}

async function invokeLocal(endpoint: string, name: string, payload: unknown, mode: 'sync' | 'async'): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (mode === 'async') headers['x-amz-invocation-type'] = 'Event';
  let res: Response;
  try {
    res = await fetch(`${endpoint}${DEV_PATHS.invoke}/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload ?? null),
    });
  } catch (error) {
    throw new RuntimeError('FW_ERR_INVOKE_FAILED', `Invoking ${name} through the dev server at ${endpoint} failed; is \`fw dev\` still running?`, { cause: error });
  }
  const text = await res.text();
  if (res.status === 404) {
    throw new RuntimeError('FW_ERR_INVOKE_NOT_FOUND', `The dev server knows no function ${name}; check the id matches a file under src/functions/`);
  }
  if (mode === 'async') {
    if (res.status === 202 || res.status === 200) return undefined;
  } else if (res.status === 200) {
    if (res.headers.get('x-amz-function-error')) throw remoteError(name, text);
    return parseResult(text);
  }
  throw new RuntimeError('FW_ERR_INVOKE_FAILED', `The dev server answered ${res.status} when invoking ${name}: ${text.slice(0, 500)}`);
}

type LambdaModule = typeof import('@aws-sdk/client-lambda');
let lambdaClient: Promise<{ mod: LambdaModule; client: InstanceType<LambdaModule['LambdaClient']> }> | undefined;

/** The SDK is loaded on the first deployed invoke only, and the client kept for the container's lifetime. */
function getLambda() {
  return (lambdaClient ??= import('@aws-sdk/client-lambda').then((mod) => ({ mod, client: new mod.LambdaClient({}) })));
}

/** Forget the cached Lambda client (tests that point the SDK at a different endpoint). */
export function resetLambdaClient(): void {
  lambdaClient = undefined;
}

async function invokeLambda(name: string, payload: unknown, mode: 'sync' | 'async'): Promise<unknown> {
  const { mod, client } = await getLambda();
  let out: import('@aws-sdk/client-lambda').InvokeCommandOutput;
  try {
    out = await client.send(
      new mod.InvokeCommand({
        FunctionName: name,
        InvocationType: mode === 'async' ? 'Event' : 'RequestResponse',
        Payload: new TextEncoder().encode(JSON.stringify(payload ?? null)),
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') {
      throw new RuntimeError('FW_ERR_INVOKE_NOT_FOUND', `Lambda has no function ${name} in this account and region; is the stage deployed?`, { cause: error });
    }
    throw new RuntimeError('FW_ERR_INVOKE_FAILED', `Invoking ${name} failed: ${(error as Error).message}`, { cause: error });
  }
  if (mode === 'async') return undefined;
  const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
  if (out.FunctionError) throw remoteError(name, text);
  return parseResult(text);
}

/**
 * Calls standalone function `src/functions/<id>.ts` of this app and stage. Synchronous by default: resolves with the
 * function's result, or rejects with an `InvokeError` carrying the remote error's name and message. With
 * `mode: 'async'` it resolves once the invocation is queued. Under `fw dev` (`FW_DEV_ENDPOINT` set) it calls the dev
 * server instead of Lambda.
 */
export function invoke<F extends FunctionId>(target: InvokeTarget<F>, options: InvokeOptions<F> & { readonly mode: 'async' }): Promise<void>;
/** Resolves with what the function's `main` returns (its type from the generated `.fw/types`, else `unknown`). */
export function invoke<F extends FunctionId>(target: InvokeTarget<F>, options?: InvokeOptions<F>): Promise<FunctionResult<F>>;
/** With the result's type given: `invoke<Summary>({ function: 'task-summary' })` (the payload is then not checked by function). */
export function invoke<TResult, F extends FunctionId = FunctionId>(target: InvokeTarget<F>, options?: InvokeOptions<NoInfer<F>>): Promise<TResult>;
export async function invoke(target: InvokeTarget<string>, options: InvokeOptions<string> = {}): Promise<unknown> {
  const name = deployedFunctionName(target.function);
  const mode = options.mode ?? 'sync';
  const endpoint = devEndpoint();
  return endpoint ? invokeLocal(endpoint, name, options.payload, mode) : invokeLambda(name, options.payload, mode);
}
