import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ResourceSettings } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../checks/nag-suppressions.js';
import { dataRemovalPolicy } from '../stack/removal-policy.js';

/** Props of `IdempotencyTable`. */
export interface IdempotencyTableProps {
  /** From core's `idempotencyTableName(project, stage)`. */
  readonly tableName: string;
  readonly resources: ResourceSettings;
}

/** The idempotency and saga store: string partition key `pk`, numeric TTL attribute `ttl`, on-demand capacity. */
export class IdempotencyTable extends Construct {
  public readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: IdempotencyTableProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      tableName: props.tableName,
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: dataRemovalPolicy(props.resources),
    });
    acknowledgeNag(this.table, 'tablePitr');
  }

  public grantReadWriteData(grantee: IGrantable): void {
    this.table.grantReadWriteData(grantee);
  }
}
