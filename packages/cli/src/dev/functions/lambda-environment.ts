import { randomBytes } from 'node:crypto';
import { LAMBDA_HANDLER, LAMBDA_NODE_OPTIONS, functionLogGroupName, lambdaExecutionEnv, lambdaLogStreamName, type AppDefinition, type FunctionUnit } from '@framework/core';

/**
 * The variables Lambda's runtime sets around a handler, with the values the deployed function has (core computes
 * them for the CDK constructs too): a handler that reads its log group, runtime, handler setting, time zone or Node
 * options sees the same locally. `LAMBDA_TASK_ROOT` is the folder the local bundles are built in (deployed
 * `/var/task`), so a path built from it points at real files; the log stream is new for each worker, as Lambda's is
 * for each execution environment.
 */
export function lambdaEnvironment(app: AppDefinition, unit: FunctionUnit, taskRoot: string, now: Date = new Date()): Record<string, string> {
  return {
    AWS_LAMBDA_FUNCTION_NAME: unit.functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(unit.memorySize),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_LOG_GROUP_NAME: functionLogGroupName(unit.functionName),
    AWS_LAMBDA_LOG_STREAM_NAME: lambdaLogStreamName(now, randomBytes(16).toString('hex')),
    AWS_EXECUTION_ENV: lambdaExecutionEnv(app.config.settings.functions.runtime),
    _HANDLER: LAMBDA_HANDLER,
    LAMBDA_TASK_ROOT: taskRoot,
    NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
  };
}
