import { Duration, RemovalPolicy } from 'aws-cdk-lib/core';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { CfnElement } from 'aws-cdk-lib/core';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { WS_REGISTRY_TABLE, type WsDefinition } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag, acknowledgeNagFindings, nagResourceRef } from '../checks/nag-suppressions.js';

/** Props of `WsConnectionRegistry`. */
export interface WsConnectionRegistryProps {
  readonly definition: WsDefinition;
}

/** The framework's WebSocket function may run this long on one batch of the fan-out queue. */
export const WS_REGISTRY_FUNCTION_TIMEOUT_SECONDS = 60;

/**
 * The WebSocket API's connection registry and fan-out queue, deployed with every WebSocket API:
 * - the table (core's `WS_REGISTRY_TABLE` layout, named by core): on demand, TTL on `ttl` (a connection lives at most
 *   2 hours), the `members` index for lookups by user and by topic. Connections are short-lived state: the table is
 *   destroyed with the stack whatever the stage's removal policy, and has no point-in-time recovery;
 * - the fan-out queue large `publish` calls hand batches to (encrypted, TLS-only, a dead-letter queue after 3
 *   receives), consumed by the framework's function (wired by the stack).
 */
export class WsConnectionRegistry extends Construct {
  public readonly table: dynamodb.Table;
  public readonly fanoutQueue: sqs.Queue;
  public readonly fanoutDeadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WsConnectionRegistryProps) {
    super(scope, id);
    const T = WS_REGISTRY_TABLE;
    this.table = new dynamodb.Table(this, 'Table', {
      tableName: props.definition.registryTableName,
      partitionKey: { name: T.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: T.sortKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: T.ttl,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: T.memberIndex,
      partitionKey: { name: T.memberKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: T.partitionKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
    acknowledgeNag(this.table, 'wsRegistryPitr');
    this.fanoutDeadLetterQueue = new sqs.Queue(this, 'FanoutDeadLetterQueue', {
      queueName: `${props.definition.fanoutQueueName}-dlq`,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledgeNag(this.fanoutDeadLetterQueue, 'noDeadLetterQueue');
    this.fanoutQueue = new sqs.Queue(this, 'FanoutQueue', {
      queueName: props.definition.fanoutQueueName,
      // Lambda's advice for an SQS event source: six times the function's timeout.
      visibilityTimeout: Duration.seconds(6 * WS_REGISTRY_FUNCTION_TIMEOUT_SECONDS),
      retentionPeriod: Duration.hours(1),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.fanoutDeadLetterQueue, maxReceiveCount: 3 },
    });
  }

  /** Read and write on the table and its index (`<table arn>/index/*`: the lookups by user and topic read `members`). */
  public grantReadWriteData(grantee: iam.IGrantable & { readonly role?: iam.IRole }): void {
    this.table.grantReadWriteData(grantee);
    if (grantee.role) acknowledgeNagFindings(grantee.role, 'wsRegistryIndex', [`Resource::${nagResourceRef(grantee.role, this.table.node.defaultChild as CfnElement)}/index/*`]);
  }

  /** Send on the fan-out queue (functions that `publish`). */
  public grantPublish(grantee: iam.IGrantable): void {
    this.fanoutQueue.grantSendMessages(grantee);
  }
}
