import * as fs from 'node:fs';
import type { FunctionBundle } from './bundle-app.js';
import type { FunctionNeeds } from './bundle-usage.js';

/**
 * The AWS SDK client behind each need. The runtime (`@framework/runtime`: queues, invoke, idempotency) and
 * `@framework/storage` import them on first use, so a bundle that never sends to a queue never loads SQS.
 */
export const NEED_SDK_CLIENTS: Readonly<Record<'queueSend' | 'invoke' | 'idempotency' | 'storage', string>> = {
  queueSend: '@aws-sdk/client-sqs',
  invoke: '@aws-sdk/client-lambda',
  idempotency: '@aws-sdk/client-dynamodb',
  storage: '@aws-sdk/client-s3',
};

/** Marks the statement `preloadSdkClients` appends, so running it again replaces it instead of adding another. */
const MARKER = '/*fw:sdk-preload*/';

/** The SDK clients a function will use: those of its needs that its bundle imports. */
export function sdkClientsToPreload(bundle: Pick<FunctionBundle, 'packages'>, needs: FunctionNeeds): string[] {
  return (Object.keys(NEED_SDK_CLIENTS) as Array<keyof typeof NEED_SDK_CLIENTS>)
    .filter((need) => needs[need] && bundle.packages.has(NEED_SDK_CLIENTS[need]))
    .map((need) => NEED_SDK_CLIENTS[need]);
}

/**
 * Makes the function import the SDK clients it will use while Lambda initializes it, not on its first request: a
 * top-level `await import(...)` appended to the banner line of `index.mjs` (the first line: the source map's lines do
 * not move), guarded by `AWS_LAMBDA_FUNCTION_NAME` so that loading the bundle elsewhere (reading the handlers' scopes
 * at synth, tests) stays as light as before. The runtime's own lazy `import()` then finds the module loaded.
 */
export function preloadSdkClients(bundle: Pick<FunctionBundle, 'entryFile'>, modules: readonly string[]): void {
  const code = fs.readFileSync(bundle.entryFile, 'utf8');
  const newline = code.indexOf('\n');
  const first = newline === -1 ? code : code.slice(0, newline);
  const banner = first.includes(MARKER) ? first.slice(0, first.indexOf(MARKER)) : first;
  const preload = modules.length ? `${MARKER}if(process.env.AWS_LAMBDA_FUNCTION_NAME)await Promise.all([${modules.map((m) => `import(${JSON.stringify(m)})`).join(',')}]);` : '';
  const next = `${banner}${preload}${newline === -1 ? '' : code.slice(newline)}`;
  if (next === code) return;
  // A new file renamed into place, never a write into the old one: a synthesized assembly may hold a hard link to it
  // (functions/bundle-code.ts).
  const temporary = `${bundle.entryFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, next);
  fs.renameSync(temporary, bundle.entryFile);
}
