/**
 * The settings groups every stage has whatever its kinds (functions, logs, network, API, resources); a kind's own
 * group (`databases`, `caches`) is declared by its module (`KindSettings`) and joined in `stage-settings.ts`.
 */
export interface BaseSettings {
  readonly functions: FunctionSettings;
  readonly logs: LogSettings;
  readonly network: NetworkSettings;
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

export interface ApiSettings {
  /** Steady-state requests per second across the HTTP API. */
  readonly throttlingRateLimit: number;
  readonly throttlingBurstLimit: number;
}

export interface ResourceSettings {
  /** What happens to stateful resources (databases, buckets, tables) when the stack is deleted. */
  readonly removalPolicy: 'destroy' | 'retain' | 'snapshot';
}
