import type { SQSBatchItemFailure, SQSEvent, SQSRecord } from 'aws-lambda';
import { runWithTenant } from '../context/tenant.js';
import { getRootLogger } from '../logger/logger.js';
import { TENANT_MESSAGE_ATTRIBUTE } from '../queues/queue-client.js';
import { withRetries, type RetryPolicy } from './retry.js';
import { taskInvocation } from './task-handler.js';

/** What `processRecords` returns: a partial batch response plus a count for the logs. */
export interface ProcessRecordsResult {
  /** Records handled successfully. */
  readonly processed: number;
  /** Records that still failed after the retries; only these are redelivered. */
  readonly batchItemFailures: SQSBatchItemFailure[];
}

export interface ProcessRecordsOptions {
  /**
   * Retries per record.
   * @default - the enclosing `taskHandler`'s `retries` (0 outside one)
   */
  readonly retries?: number;
}

/** A message body: JSON when it parses (what the queue client sends for non-strings), else the raw string. */
function parseRecordBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** By the queue ARN: standard queues may carry a MessageGroupId too (fair queues), only FIFO names end in `.fifo`. */
function isFifo(record: SQSRecord): boolean {
  return record.eventSourceARN?.endsWith('.fifo') === true;
}

/**
 * Calls `fn(body, record)` for each SQS record in order, retrying transient errors per record as the enclosing
 * `taskHandler` says, and returns `{ processed, batchItemFailures }` naming the records that still failed (the
 * infra package enables partial batch responses, so only those are redelivered). On a FIFO queue processing stops
 * at the first failure and every later record is reported too, keeping the group's order.
 */
export async function processRecords<TBody = unknown>(
  event: SQSEvent,
  fn: (body: TBody, record: SQSRecord) => Promise<unknown> | unknown,
  options: ProcessRecordsOptions = {},
): Promise<ProcessRecordsResult> {
  const invocation = taskInvocation.getStore();
  const policy: RetryPolicy = { ...invocation?.policy, retries: options.retries ?? invocation?.policy.retries ?? 0 };
  const logger = invocation?.ctx.logger ?? getRootLogger();
  const remaining = invocation ? () => invocation.ctx.getRemainingTimeInMillis() : undefined;
  const failures: SQSBatchItemFailure[] = [];
  let processed = 0;
  const records = event.Records ?? [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    // A message sent for a tenant is handled as that tenant (its statements, keys and log lines), and only it.
    const tenantId = record.messageAttributes?.[TENANT_MESSAGE_ATTRIBUTE]?.stringValue;
    const handle = () => fn(parseRecordBody(record.body) as TBody, record);
    try {
      await withRetries(async () => (tenantId ? runWithTenant({ id: tenantId }, handle) : runWithTenant(undefined, handle)), policy, remaining, (error, retry, delayMs) =>
        logger.warn(`Record ${record.messageId}: transient error, retry ${retry} of ${policy.retries} in ${delayMs} ms`, { error }),
      );
      processed++;
    } catch (error) {
      logger.error(`Record ${record.messageId} failed`, { error, messageId: record.messageId });
      failures.push({ itemIdentifier: record.messageId });
      if (isFifo(record)) {
        for (const rest of records.slice(i + 1)) failures.push({ itemIdentifier: rest.messageId });
        break;
      }
    }
  }
  return { processed, batchItemFailures: failures };
}
