import { Duration } from 'aws-cdk-lib/core';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { QueueDefinition } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../checks/nag-suppressions.js';

/** Props of `AppQueue`. */
export interface AppQueueProps {
  readonly definition: QueueDefinition;
}

/**
 * A queue intent: the SQS queue named by core, with the model's visibility timeout and retention, encrypted and
 * TLS-only, and a dead-letter queue (kept 14 days, the maximum) receiving messages after `maxReceiveCount` receives.
 * The consumer's event source mapping is wired by the stack, next to the function.
 */
export class AppQueue extends Construct {
  public readonly definition: QueueDefinition;
  public readonly queue: sqs.Queue;
  public readonly deadLetterQueue?: sqs.Queue;

  constructor(scope: Construct, id: string, props: AppQueueProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    if (definition.deadLetterQueue && definition.deadLetterQueueName) {
      this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
        queueName: definition.deadLetterQueueName,
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      acknowledgeNag(this.deadLetterQueue, 'noDeadLetterQueue');
    }
    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: definition.queueName,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeout),
      retentionPeriod: Duration.days(definition.retentionDays),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: this.deadLetterQueue ? { queue: this.deadLetterQueue, maxReceiveCount: definition.maxReceiveCount } : undefined,
    });
    if (!this.deadLetterQueue) acknowledgeNag(this.queue, 'noDeadLetterQueue');
  }
}
