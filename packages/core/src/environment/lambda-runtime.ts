/**
 * What Lambda's Node.js runtime sets around a handler that a handler may read, computed once: the CDK constructs
 * deploy with these values (log group, Node options) and `fw dev` sets the same variables in each function's worker.
 */

/** The handler setting of every deployed function (`index.mjs`, export `main`): Lambda's `_HANDLER`. */
export const LAMBDA_HANDLER = 'index.main';

/** The code folder of a deployed function: Lambda's `LAMBDA_TASK_ROOT`. */
export const LAMBDA_TASK_ROOT = '/var/task';

/** Lambda's `TZ` (the colon form: the C library reads the zone file, UTC). */
export const LAMBDA_TZ = ':UTC';

/** `NODE_OPTIONS` of every deployed function: stack traces through the bundle's source maps. */
export const LAMBDA_NODE_OPTIONS = '--enable-source-maps';

/** The log group of a function: `/aws/lambda/<function name>` (Lambda's default, created by the stack). */
export function functionLogGroupName(functionName: string): string {
  return `/aws/lambda/${functionName}`;
}

/** `AWS_EXECUTION_ENV` for a Lambda runtime (`nodejs22.x` → `AWS_Lambda_nodejs22.x`). */
export function lambdaExecutionEnv(runtime: string): string {
  return `AWS_Lambda_${runtime}`;
}

/**
 * A log stream name as Lambda names them: `2026/11/22/[$LATEST]<32 hex>`, one per execution environment (so per
 * worker locally).
 */
export function lambdaLogStreamName(date: Date, instanceHex: string, version = '$LATEST'): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}/${p(date.getUTCMonth() + 1)}/${p(date.getUTCDate())}/[${version}]${instanceHex}`;
}
