import type { Codec } from '../config/codec.js';
import { envToken } from '../environment/env-token.js';
import { migrationFunctionName } from '../naming/unit-names.js';
import type { StandaloneFunctionDefinition } from './functions.js';
import { outputRef, type CodecKit, type IntentKindModule, type KindSettings, type KindValue } from './intent-kind.js';

/** A PostgreSQL database. Its size comes from the stage's `databases` settings. */
export interface DatabaseIntent {
  readonly id: string;
  /** @default 'postgres' */
  readonly engine?: 'postgres';
  /** Database name inside the server. @default - the id with `-` as `_` */
  readonly databaseName?: string;
  /** Folder of SQL migrations, relative to the project. @default 'migrations' */
  readonly migrationsDir?: string;
  /**
   * PostgreSQL version deployed: a major (`'17'`: the newest minor the framework pins for it) or an exact
   * `major.minor` (`'17.9'`) that RDS or Aurora offers for new databases.
   * @default '17'
   */
  readonly engineVersion?: string;
}

/** The codec of `infrastructure.databases` (built from the kit: this module stays free of io-ts at run time). */
export function databasesCodec({ c, id }: CodecKit): Codec<readonly DatabaseIntent[]> {
  return c.array(
    c.struct<DatabaseIntent>('a database intent { id }', {
      id: c.required(id),
      engine: c.optional(c.oneOf(['postgres'] as const)),
      databaseName: c.optional(c.pattern('a database name of lowercase letters, digits or "_"', /^[a-z_][a-z0-9_]{0,62}$/)),
      migrationsDir: c.optional(c.pattern('a relative folder path', /^(?!\/)(?!.*\.\.)[\w./-]+$/)),
      engineVersion: c.optional(c.pattern('a PostgreSQL version: a major such as "17" or a major.minor such as "17.9"', /^[1-9]\d(\.\d{1,2})?$/)),
    }),
  );
}

/** The PostgreSQL major a database intent deploys unless it sets `engineVersion`. */
export const DEFAULT_POSTGRES_VERSION = '17';

/** The migration function's memory, MB: what applying a large migration needs, whatever the stage's preset. */
export const MIGRATION_MEMORY_SIZE = 512;

/** Migrations of a large database may take minutes; CloudFormation waits for the custom resource up to an hour. */
export const MIGRATION_TIMEOUT_SECONDS = 600;

/** Outputs of a database intent that reach functions (interpreters provide exactly these). */
export const DATABASE_OUTPUTS = ['host', 'port', 'name', 'secretArn'] as const;

/** Variables carrying a database intent's outputs. */
export function databaseEnv(id: string) {
  const t = envToken(id);
  return {
    host: `FW_DB_${t}_HOST`,
    port: `FW_DB_${t}_PORT`,
    name: `FW_DB_${t}_NAME`,
    /** Deployed: ARN of the Secrets Manager secret holding `username` and `password`. Locally: `local`. */
    secretArn: `FW_DB_${t}_SECRET_ARN`,
  } as const;
}

export interface DatabaseDefinition {
  readonly id: string;
  readonly engine: 'postgres';
  readonly databaseName: string;
  readonly migrationsDir: string;
  /** `'17'` (the newest minor the cloud interpreter pins for that major) or an exact `'17.9'`. */
  readonly engineVersion: string;
  readonly migrationFunctionName: string;
  /**
   * The function that applies the migrations when deployed (`@framework/data/migrate-handler`), with its own memory
   * and timeout: not a unit of the app's handler files, so not in `AppDefinition.units`.
   */
  readonly migrationFunction: StandaloneFunctionDefinition;
  readonly variables: ReturnType<typeof databaseEnv>;
}

/**
 * The migration function of a database named `functionName` (`{project}-{stage}-migrate-<id>`, `migrationFunctionName`):
 * the one definition of its handler, memory and timeout, read by the model and by infra's `DatabaseMigrations`.
 */
export function migrationFunctionDefinition(databaseId: string, functionName: string): StandaloneFunctionDefinition {
  return {
    kind: 'function',
    id: `migrate/${databaseId}`,
    file: '@framework/data/migrate-handler',
    functionName,
    memorySize: MIGRATION_MEMORY_SIZE,
    timeout: MIGRATION_TIMEOUT_SECONDS,
    environment: {},
    description: `Applies the migrations of database ${databaseId}`,
  };
}

/** `infrastructure.databases`: PostgreSQL databases, sized by the stage's `databases` settings. */
/** The stage settings of databases (`settings.databases`): how a preset sizes every database of the stage. */
export interface DatabaseSettings {
  /** `rds-instance`: one provisioned instance; `aurora-serverless-v2`: Aurora PostgreSQL Serverless v2. */
  readonly engine: 'rds-instance' | 'aurora-serverless-v2';
  /** Instance class for `rds-instance` (e.g. `t4g.micro`). */
  readonly instanceClass: string;
  /** Aurora capacity units; 0 lets the cluster pause when idle. */
  readonly minCapacity: number;
  readonly maxCapacity: number;
  /** Storage for `rds-instance`, GB. */
  readonly allocatedStorageGb: number;
  readonly backupRetentionDays: number;
  readonly multiAz: boolean;
  readonly deletionProtection: boolean;
}

/** The databases' settings in each preset (README.md shows the table). */
const DATABASE_SETTINGS: KindSettings<DatabaseSettings> = {
  label: 'database settings',
  fields: ({ c }) => ({
    engine: c.required(c.oneOf(['rds-instance', 'aurora-serverless-v2'] as const)),
    instanceClass: c.required(c.pattern('an instance class such as "t4g.micro"', /^[a-z][a-z0-9]*\.[a-z0-9]+$/)),
    minCapacity: c.required(c.decimal(0, 256)),
    maxCapacity: c.required(c.decimal(1, 256)),
    allocatedStorageGb: c.required(c.integer(20, 65536)),
    backupRetentionDays: c.required(c.integer(1, 35)),
    multiAz: c.required(c.boolean),
    deletionProtection: c.required(c.boolean),
  }),
  presets: {
    free: { engine: 'rds-instance', instanceClass: 't4g.micro', minCapacity: 0, maxCapacity: 1, allocatedStorageGb: 20, backupRetentionDays: 1, multiAz: false, deletionProtection: false },
    nano: { engine: 'aurora-serverless-v2', instanceClass: 't4g.micro', minCapacity: 0, maxCapacity: 2, allocatedStorageGb: 20, backupRetentionDays: 1, multiAz: false, deletionProtection: false },
    micro: { engine: 'aurora-serverless-v2', instanceClass: 't4g.small', minCapacity: 0.5, maxCapacity: 4, allocatedStorageGb: 20, backupRetentionDays: 7, multiAz: false, deletionProtection: false },
    medium: { engine: 'aurora-serverless-v2', instanceClass: 'r6g.large', minCapacity: 1, maxCapacity: 16, allocatedStorageGb: 100, backupRetentionDays: 14, multiAz: true, deletionProtection: true },
    large: { engine: 'aurora-serverless-v2', instanceClass: 'r6g.xlarge', minCapacity: 2, maxCapacity: 64, allocatedStorageGb: 500, backupRetentionDays: 30, multiAz: true, deletionProtection: true },
  },
};

export const databasesKind: IntentKindModule<readonly DatabaseIntent[], readonly DatabaseDefinition[], (typeof DATABASE_OUTPUTS)[number], 'databases', DatabaseSettings> = {
  settings: DATABASE_SETTINGS,
  configKey: 'databases',
  ids: 'flat',
  codec: databasesCodec,
  outputs: DATABASE_OUTPUTS,
  build: (intents, { project, stage }) =>
    (intents ?? []).map((d) => ({
      id: d.id,
      engine: d.engine ?? 'postgres',
      databaseName: d.databaseName ?? d.id.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^(\d)/, '_$1'),
      migrationsDir: d.migrationsDir ?? 'migrations',
      engineVersion: d.engineVersion ?? DEFAULT_POSTGRES_VERSION,
      migrationFunctionName: migrationFunctionName(project, stage, d.id),
      migrationFunction: migrationFunctionDefinition(d.id, migrationFunctionName(project, stage, d.id)),
      variables: databaseEnv(d.id),
    })),
  environment: (databases) => {
    const env: Record<string, KindValue<(typeof DATABASE_OUTPUTS)[number]>> = {};
    for (const { id, variables: v } of databases) {
      env[v.host] = outputRef(id, 'host');
      env[v.port] = outputRef(id, 'port');
      env[v.name] = outputRef(id, 'name');
      env[v.secretArn] = outputRef(id, 'secretArn');
    }
    return env;
  },
  units: () => [],
};
