import { CustomResource, RemovalPolicy, type CfnElement } from 'aws-cdk-lib/core';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { MIGRATION_TIMEOUT_SECONDS, migrationFunctionDefinition, type EnvironmentSettings, type StandaloneFunctionDefinition } from '@framework/core';
import { Construct } from 'constructs';
import type { MigrationBundle } from '../bundling/bundle-app.js';
import { acknowledgeNagFindings, nagResourceRef } from '../checks/nag-suppressions.js';
import { AppFunction } from '../functions/app-function.js';
import type { AppNetwork } from '../network/app-network.js';
import type { AppDatabase } from './app-database.js';

/** Props of `DatabaseMigrations`. */
export interface DatabaseMigrationsProps {
  readonly database: AppDatabase;
  /**
   * The migration function as the app model defines it (`DatabaseDefinition.migrationFunction`: name, memory, timeout).
   * @default - core's definition for `bundle`'s database with core's memory and timeout
   */
  readonly unit?: StandaloneFunctionDefinition;
  readonly bundle: MigrationBundle;
  readonly settings: EnvironmentSettings;
  /** The app's variables with their cloud values (the function reads its database's). */
  readonly environment: Readonly<Record<string, string>>;
  readonly network: AppNetwork;
}

/** Core's `MIGRATION_TIMEOUT_SECONDS`, still importable from here. */
export { MIGRATION_TIMEOUT_SECONDS };

/**
 * Applies a database's migrations on every deployment that changes them: the migration function (named by core's
 * `migrationFunctionName`, `@framework/data/migrate-handler` with the `.sql` files bundled in `migrations/`) behind a
 * custom resource whose `MigrationsHash` changes with the files. Deleting the stack never touches the schema (the
 * handler ignores Delete). `fw migrate --stage` invokes the same function directly.
 */
export class DatabaseMigrations extends Construct {
  public readonly function: AppFunction;
  public readonly provider: cr.Provider;
  public readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: DatabaseMigrationsProps) {
    super(scope, id);
    const { database, bundle } = props;
    const unit = props.unit ?? migrationFunctionDefinition(bundle.databaseId, bundle.functionName);
    this.function = new AppFunction(this, 'Function', { unit, bundle, settings: props.settings, environment: props.environment, network: props.network });
    database.grantConnect(this.function.function);
    this.provider = new cr.Provider(this, 'Provider', {
      onEventHandler: this.function.function,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: props.settings.logs.retentionDays as logs.RetentionDays, removalPolicy: RemovalPolicy.DESTROY }),
    });
    acknowledgeNagFindings(this.provider, 'migrationsProvider', [`Resource::${nagResourceRef(this.provider, this.function.function.node.defaultChild as CfnElement)}:*`]);
    this.resource = new CustomResource(this, 'Apply', {
      serviceToken: this.provider.serviceToken,
      resourceType: 'Custom::FrameworkMigrations',
      properties: { DatabaseId: bundle.databaseId, MigrationsHash: bundle.migrationsHash },
    });
    this.resource.node.addDependency(database);
  }
}
