import * as c from '../config/codec.js';

/**
 * The sizing and operational settings of a stage. A preset gives a value to every field; an environment's
 * `overrides` may replace any of them. Nothing is hidden: `describeResolvedConfig` lists each field with its source.
 */
export interface EnvironmentSettings {
  readonly functions: FunctionSettings;
  readonly logs: LogSettings;
  readonly network: NetworkSettings;
  readonly databases: DatabaseSettings;
  readonly caches: CacheSettings;
  readonly api: ApiSettings;
  readonly resources: ResourceSettings;
}

export interface FunctionSettings {
  /** Memory in MB for every function that does not set its own. */
  readonly memorySize: number;
  /** Timeout in seconds for every function that does not set its own (routes are capped at 30 by the gateway). */
  readonly timeout: number;
  readonly runtime: 'nodejs20.x' | 'nodejs22.x';
  readonly architecture: 'arm64' | 'x86_64';
  /** X-Ray active tracing. */
  readonly tracing: boolean;
}

export const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;
export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];

export interface LogSettings {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  /** CloudWatch Logs retention (one of the values CloudWatch accepts). */
  readonly retentionDays: LogRetentionDays;
}

export interface NetworkSettings {
  /** NAT gateways of the private network (0: functions in the VPC reach only the gateway endpoints). */
  readonly natGateways: number;
  readonly maxAzs: number;
}

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

export interface CacheSettings {
  readonly maxDataStorageGb: number;
  readonly maxEcpuPerSecond: number;
}

export interface ApiSettings {
  /** Steady-state requests per second across the HTTP API. */
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
}

export interface ResourceSettings {
  /** What happens to stateful resources (databases, buckets, tables) when the stack is deleted. */
  readonly removalPolicy: 'destroy' | 'retain' | 'snapshot';
}

/** Deep-partial settings: what an environment's `overrides` may contain. */
export type SettingsOverrides = { readonly [K in keyof EnvironmentSettings]?: Partial<EnvironmentSettings[K]> };

const functionFields: c.Fields<FunctionSettings> = {
  memorySize: c.required(c.integer(128, 10240)),
  timeout: c.required(c.integer(1, 900)),
  runtime: c.required(c.oneOf(['nodejs20.x', 'nodejs22.x'] as const)),
  architecture: c.required(c.oneOf(['arm64', 'x86_64'] as const)),
  tracing: c.required(c.boolean),
};
const logFields: c.Fields<LogSettings> = {
  level: c.required(c.oneOf(['debug', 'info', 'warn', 'error'] as const)),
  retentionDays: c.required(c.oneOf(LOG_RETENTION_DAYS)),
};
const networkFields: c.Fields<NetworkSettings> = {
  natGateways: c.required(c.integer(0, 3)),
  maxAzs: c.required(c.integer(1, 3)),
};
const databaseFields: c.Fields<DatabaseSettings> = {
  engine: c.required(c.oneOf(['rds-instance', 'aurora-serverless-v2'] as const)),
  instanceClass: c.required(c.pattern('an instance class such as "t4g.micro"', /^[a-z][a-z0-9]*\.[a-z0-9]+$/)),
  minCapacity: c.required(c.decimal(0, 256)),
  maxCapacity: c.required(c.decimal(1, 256)),
  allocatedStorageGb: c.required(c.integer(20, 65536)),
  backupRetentionDays: c.required(c.integer(1, 35)),
  multiAz: c.required(c.boolean),
  deletionProtection: c.required(c.boolean),
};
const cacheFields: c.Fields<CacheSettings> = {
  maxDataStorageGb: c.required(c.integer(1, 5000)),
  maxEcpuPerSecond: c.required(c.integer(1000, 15000000)),
};
const apiFields: c.Fields<ApiSettings> = {
  throttlingRateLimit: c.required(c.integer(1, 1000000)),
  throttlingBurstLimit: c.required(c.integer(1, 1000000)),
};
const resourceFields: c.Fields<ResourceSettings> = {
  removalPolicy: c.required(c.oneOf(['destroy', 'retain', 'snapshot'] as const)),
};

const allOptional = <T>(fields: c.Fields<T>): c.Fields<Partial<T>> =>
  Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, c.optional((f as c.Field<unknown>).codec)])) as unknown as c.Fields<Partial<T>>;

export const settingsCodec = c.struct<EnvironmentSettings>('environment settings', {
  functions: c.required(c.struct('function settings', functionFields)),
  logs: c.required(c.struct('log settings', logFields)),
  network: c.required(c.struct('network settings', networkFields)),
  databases: c.required(c.struct('database settings', databaseFields)),
  caches: c.required(c.struct('cache settings', cacheFields)),
  api: c.required(c.struct('API settings', apiFields)),
  resources: c.required(c.struct('resource settings', resourceFields)),
});

export const settingsOverridesCodec = c.struct<SettingsOverrides>('settings overrides', {
  functions: c.optional(c.struct('function settings', allOptional(functionFields))),
  logs: c.optional(c.struct('log settings', allOptional(logFields))),
  network: c.optional(c.struct('network settings', allOptional(networkFields))),
  databases: c.optional(c.struct('database settings', allOptional(databaseFields))),
  caches: c.optional(c.struct('cache settings', allOptional(cacheFields))),
  api: c.optional(c.struct('API settings', allOptional(apiFields))),
  resources: c.optional(c.struct('resource settings', allOptional(resourceFields))),
});
