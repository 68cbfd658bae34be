import { Duration, Token } from 'aws-cdk-lib/core';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import * as rds from 'aws-cdk-lib/aws-rds';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { DatabaseDefinition, DatabaseSettings, ResourceSettings } from '@framework/core';
import { Construct } from 'constructs';
import type { AppNetwork } from '../network/app-network.js';
import { acknowledgeNag } from '../checks/nag-suppressions.js';
import { snapshotRemovalPolicy } from '../stack/removal-policy.js';
import { postgresVersionOf } from './engine-versions.js';

/** Props of `AppDatabase`. */
export interface AppDatabaseProps {
  readonly definition: DatabaseDefinition;
  /** Engine and size, from the stage's preset. */
  readonly settings: DatabaseSettings;
  readonly resources: ResourceSettings;
  readonly network: AppNetwork;
}

/** The master user; the secret carries it with the password, so clients never hard-code it. */
export const DATABASE_MASTER_USER = 'fwadmin';

/**
 * A database intent: Aurora PostgreSQL Serverless v2 (a writer, plus a reader in another zone when `multiAz`) or a
 * single RDS PostgreSQL instance, per the preset's `databases.engine`. Credentials are generated into Secrets
 * Manager; storage is encrypted; the server admits only the app's function security group.
 */
export class AppDatabase extends Construct {
  public readonly definition: DatabaseDefinition;
  public readonly cluster?: rds.DatabaseCluster;
  public readonly instance?: rds.DatabaseInstance;
  public readonly secret: ISecret;
  public readonly host: string;
  public readonly port: string;
  public readonly connections: ec2.Connections;

  constructor(scope: Construct, id: string, props: AppDatabaseProps) {
    super(scope, id);
    const { definition, settings, network } = props;
    this.definition = definition;
    const credentials = rds.Credentials.fromGeneratedSecret(DATABASE_MASTER_USER);
    const removalPolicy = snapshotRemovalPolicy(props.resources);
    const version = postgresVersionOf(definition.engineVersion);
    const common = {
      vpc: network.vpc,
      vpcSubnets: network.privateSubnets,
      credentials,
      storageEncrypted: true,
      deletionProtection: settings.deletionProtection,
      removalPolicy,
      cloudwatchLogsExports: ['postgresql'],
    };
    if (settings.engine === 'aurora-serverless-v2') {
      const cluster = new rds.DatabaseCluster(this, 'Cluster', {
        ...common,
        engine: rds.DatabaseClusterEngine.auroraPostgres({ version: version.aurora }),
        defaultDatabaseName: definition.databaseName,
        serverlessV2MinCapacity: settings.minCapacity,
        serverlessV2MaxCapacity: settings.maxCapacity,
        writer: rds.ClusterInstance.serverlessV2('writer'),
        readers: settings.multiAz ? [rds.ClusterInstance.serverlessV2('reader', { scaleWithWriter: true })] : [],
        backup: { retention: Duration.days(settings.backupRetentionDays) },
      });
      this.cluster = cluster;
      this.secret = cluster.secret!;
      this.host = cluster.clusterEndpoint.hostname;
      this.port = Token.asString(cluster.clusterEndpoint.port);
      this.connections = cluster.connections;
    } else {
      const instance = new rds.DatabaseInstance(this, 'Instance', {
        ...common,
        engine: rds.DatabaseInstanceEngine.postgres({ version: version.instance }),
        instanceType: new ec2.InstanceType(settings.instanceClass),
        allocatedStorage: settings.allocatedStorageGb,
        databaseName: definition.databaseName,
        multiAz: settings.multiAz,
        backupRetention: Duration.days(settings.backupRetentionDays),
        publiclyAccessible: false,
      });
      this.instance = instance;
      this.secret = instance.secret!;
      this.host = instance.dbInstanceEndpointAddress;
      this.port = instance.dbInstanceEndpointPort;
      this.connections = instance.connections;
    }
    this.connections.allowDefaultPortFrom(network.functionSecurityGroup, 'Functions of the app');
    acknowledgeNag(this, 'secretRotation');
    acknowledgeNag(this, 'databaseDefaultPort');
    acknowledgeNag(this, 'databaseIamAuth');
    if (!settings.multiAz) acknowledgeNag(this, 'databaseMultiAz');
    if (!settings.deletionProtection) acknowledgeNag(this, 'databaseDeletionProtection');
  }

  /** Lets a function read the credentials (network access comes from the shared function security group). */
  public grantConnect(grantee: IGrantable): void {
    this.secret.grantRead(grantee);
  }
}
