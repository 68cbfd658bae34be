import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context as LambdaContext } from 'aws-lambda';
import { fallbackRequestId, standInLambdaContext, type BaseContext } from '../context/handler-context.js';
import { traceIdFromAmznHeader, type TraceInfo } from '../context/trace.js';
import { withHandlerInfo, type HandlerInfo } from '../handler-info.js';
import { getRootLogger, type Logger } from '../logger/logger.js';
import { getService, type Service } from '../service/service.js';
import { withRetries, type Clock, type RetryPolicy } from './retry.js';

/** `ctx` of a queue consumer, cron or standalone function. */
export interface TaskContext<TEvent = unknown> extends BaseContext {
  /** The event as received. */
  readonly rawEvent: TEvent;
  /** 0 on the first attempt, then 1, 2, ... on in-invocation retries. */
  readonly attempt: number;
}

export type TaskFn<TEvent, TResult> = (event: TEvent, ctx: TaskContext<TEvent>, service: Service) => Promise<TResult> | TResult;

export interface TaskHandlerOptions {
  /**
   * In-invocation retries for transient errors (see `isTransientError`), with exponential backoff and full jitter.
   * With `processRecords` they apply per record.
   * @default 0
   */
  readonly retries?: number;
  /**
   * First backoff ceiling in ms (doubles on each retry).
   * @default 100
   */
  readonly baseDelayMs?: number;
  /**
   * Highest backoff ceiling in ms.
   * @default 5000
   */
  readonly maxDelayMs?: number;
  /**
   * Time source for the backoff; tests inject a fake one.
   * @default - real timers
   */
  readonly clock?: Clock;
}

/** The Lambda handler `taskHandler(...)` returns; export it as `main`. */
export type TaskHandler<TEvent, TResult> = ((event: TEvent, context?: LambdaContext) => Promise<TResult>) & {
  readonly handlerInfo: HandlerInfo;
};

/** What `processRecords` needs from the invocation it runs in. */
export interface TaskInvocation {
  readonly policy: RetryPolicy;
  readonly ctx: BaseContext;
}

/** The running task invocation, so `processRecords` inherits its retries and logger without extra arguments. */
export const taskInvocation = new AsyncLocalStorage<TaskInvocation>();

class TaskHandlerContext<TEvent> implements TaskContext<TEvent> {
  readonly timestamp: Date;
  readonly trace?: TraceInfo;
  private _logger: Logger | undefined;

  constructor(
    readonly rawEvent: TEvent,
    readonly lambdaContext: LambdaContext,
    readonly requestId: string,
    startedAt: number,
    public attempt: number,
  ) {
    this.timestamp = new Date(startedAt);
    const traceId = traceIdFromAmznHeader(process.env['_X_AMZN_TRACE_ID']);
    if (traceId) this.trace = { traceId };
  }

  get logger(): Logger {
    return (this._logger ??= getRootLogger().child(this.trace ? { requestId: this.requestId, traceId: this.trace.traceId } : { requestId: this.requestId }));
  }

  getRemainingTimeInMillis(): number {
    return this.lambdaContext.getRemainingTimeInMillis();
  }
}

/**
 * Wraps a queue consumer, cron or standalone function. `fn(event, ctx, service)` receives the whole event (SQS event,
 * EventBridge scheduled event, or the `invoke` payload) and its result is returned as is, so a `processRecords` result
 * reaches Lambda as a partial batch response. A transient error is retried up to `retries` times; the last error is
 * logged and rethrown, so the queue or the scheduler retries the invocation.
 */
export function taskHandler<TEvent = unknown, TResult = unknown>(
  fn: TaskFn<TEvent, TResult>,
  options: TaskHandlerOptions = {},
): TaskHandler<TEvent, TResult> {
  const retries = Math.max(0, Math.floor(options.retries ?? 0));
  const policy: RetryPolicy = {
    retries,
    ...(options.baseDelayMs !== undefined ? { baseDelayMs: options.baseDelayMs } : {}),
    ...(options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  };

  async function main(event: TEvent, lambdaContext?: LambdaContext): Promise<TResult> {
    const startedAt = Date.now();
    // In a Lambda bundle (`LAMBDA_BUNDLE_DEFINE`) Lambda's context is always there: no stand-in code.
    const requestId = globalThis.__fwLambdaBundle ? lambdaContext!.awsRequestId : (lambdaContext?.awsRequestId ?? fallbackRequestId());
    const context = globalThis.__fwLambdaBundle ? lambdaContext! : (lambdaContext ?? standInLambdaContext(requestId, startedAt));
    const ctx = new TaskHandlerContext(event, context, requestId, startedAt, 0);
    const service = getService();
    return taskInvocation.run({ policy, ctx }, async () => {
      try {
        return await withRetries(
          async (attempt) => {
            ctx.attempt = attempt;
            return fn(event, ctx, service);
          },
          policy,
          () => context.getRemainingTimeInMillis(),
          (error, retry, delayMs) => ctx.logger.warn(`Transient error, retry ${retry} of ${retries} in ${delayMs} ms`, { error }),
        );
      } catch (error) {
        ctx.logger.error('Task failed', { error });
        throw error;
      }
    });
  }

  return withHandlerInfo(main, { kind: 'task', scopes: [], middleware: [], retries });
}
