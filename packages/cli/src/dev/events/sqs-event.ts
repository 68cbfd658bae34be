import { createHash, randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';

/** One message as a queue record carries it. */
export interface QueueMessageInput {
  readonly messageId?: string;
  readonly body: string;
  /** How many times it has been received, this delivery included. @default 1 */
  readonly receiveCount?: number;
  readonly sentTimestamp?: number;
  readonly firstReceiveTimestamp?: number;
  /** String message attributes (the tenant travels as `fw-tenant`). @default - none */
  readonly attributes?: Readonly<Record<string, string>>;
}

/** The queue's ARN as the consumer sees it (`arn:aws:sqs:<region>:000000000000:<queue name>`). */
export function localQueueArn(region: string, queueName: string): string {
  return `arn:aws:sqs:${region}:000000000000:${queueName}`;
}

/** An SQS event (`Records[]`), as the Lambda event source mapping delivers a batch. */
export function buildSqsEvent(region: string, queueName: string, messages: readonly QueueMessageInput[]): SQSEvent {
  const now = Date.now();
  const Records: SQSRecord[] = messages.map((m) => ({
    messageId: m.messageId ?? randomUUID(),
    receiptHandle: Buffer.from(`${m.messageId ?? ''}:${randomUUID()}`).toString('base64'),
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount ?? 1),
      SentTimestamp: String(m.sentTimestamp ?? now),
      SenderId: '000000000000',
      ApproximateFirstReceiveTimestamp: String(m.firstReceiveTimestamp ?? now),
    },
    // The shape the event source mapping gives string attributes.
    messageAttributes: Object.fromEntries(
      Object.entries(m.attributes ?? {}).map(([name, value]) => [name, { stringValue: value, stringListValues: [], binaryListValues: [], dataType: 'String' }]),
    ),
    md5OfBody: createHash('md5').update(m.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: localQueueArn(region, queueName),
    awsRegion: region,
  }));
  return { Records };
}
