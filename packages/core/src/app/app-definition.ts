import type { AuthIntent, LifecycleRule, UploadNotification } from '../config/intents.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { HttpMethod } from '../discovery/routes.js';
import type { bucketEnv, cacheEnv, databaseEnv, queueEnv } from '../environment/variables.js';
import type { ScheduleSpec } from '../schedule/schedule-expression.js';

/**
 * The app model: what `defineApp` returns for one stage. The dev server and the CDK constructs are two
 * interpreters of this object; every name, size and environment variable in it is final.
 */
export interface AppDefinition {
  readonly project: string;
  readonly stage: string;
  readonly region: string;
  /** Absolute project folder (where `fw.config.ts` is). */
  readonly rootDir: string;
  /** Every stage declared in `envs`. */
  readonly stages: readonly string[];
  /** Base + security + this stage's environment, resolved (with each field's source in `config.fields`). */
  readonly config: ResolvedConfig;
  readonly routes: readonly RouteDefinition[];
  readonly functions: readonly StandaloneFunctionDefinition[];
  readonly queues: readonly QueueDefinition[];
  readonly crons: readonly CronDefinition[];
  readonly databases: readonly DatabaseDefinition[];
  readonly storage: readonly BucketDefinition[];
  readonly caches: readonly CacheDefinition[];
  /** Present when `infrastructure.auth` is set. */
  readonly auth?: AuthDefinition;
  /** Every Lambda function of the app (routes, standalone functions, queue consumers, crons), in a stable order. */
  readonly units: readonly FunctionUnit[];
  /** The variables every function gets: fixed values, or outputs of an intent that each interpreter fills in. */
  readonly environment: Readonly<Record<string, EnvValue>>;
  /** Where the directories are, relative to `rootDir`. */
  readonly directories: { readonly routes: string; readonly functions: string; readonly queues: string; readonly crons: string; readonly lib: string };
  /** The same app for another stage declared in `envs` (names and preset values of that stage). */
  forStage(stage: string): AppDefinition;
}

export type UnitKind = 'route' | 'function' | 'queue' | 'cron';

/** What every deployed function has. */
export interface FunctionUnit {
  readonly kind: UnitKind;
  /** Route key for routes (`PUT /tasks/{id}`), id for the others (`reports/daily`, `emails`, `cleanup`). */
  readonly id: string;
  /** Project-relative handler file, `/`-separated. */
  readonly file: string;
  readonly functionName: string;
  /** MB. */
  readonly memorySize: number;
  /** Seconds. */
  readonly timeout: number;
  /** Variables for this function only, on top of the app's `environment`. */
  readonly environment: Readonly<Record<string, string>>;
}

export interface RouteDefinition extends FunctionUnit {
  readonly kind: 'route';
  readonly method: HttpMethod;
  /** `/tasks/{id}`. */
  readonly path: string;
  /** `PUT /tasks/{id}`. */
  readonly routeKey: string;
  readonly pathParams: readonly string[];
}

export interface StandaloneFunctionDefinition extends FunctionUnit {
  readonly kind: 'function';
  readonly description?: string;
}

export interface QueueDefinition extends FunctionUnit {
  readonly kind: 'queue';
  readonly queueName: string;
  readonly deadLetterQueue: boolean;
  /** Set when `deadLetterQueue` is true. */
  readonly deadLetterQueueName?: string;
  readonly batchSize: number;
  /** Seconds. */
  readonly visibilityTimeout: number;
  readonly maxReceiveCount: number;
  readonly retentionDays: number;
  /** Names of the variables carrying this queue's outputs. */
  readonly variables: ReturnType<typeof queueEnv>;
}

export interface CronDefinition extends FunctionUnit {
  readonly kind: 'cron';
  readonly ruleName: string;
  readonly schedule: ScheduleSpec;
  /** `cron(0 12 * * ? *)` or `rate(5 minutes)`, UTC. */
  readonly expression: string;
  readonly enabled: boolean;
  readonly retryAttempts: number;
  readonly description?: string;
}

export interface DatabaseDefinition {
  readonly id: string;
  readonly engine: 'postgres';
  readonly databaseName: string;
  readonly migrationsDir: string;
  /** `'17'` (the newest minor the cloud interpreter pins for that major) or an exact `'17.9'`. */
  readonly engineVersion: string;
  readonly migrationFunctionName: string;
  readonly variables: ReturnType<typeof databaseEnv>;
}

export interface BucketDefinition {
  readonly id: string;
  readonly cdn: boolean;
  readonly lifecycle: readonly LifecycleRule[];
  readonly corsOrigins: readonly string[];
  readonly maxUploadBytes: number;
  /** Undefined: any content type. */
  readonly allowedContentTypes?: readonly string[];
  /** Types that can run script are served inline (true) or as attachments (false). */
  readonly inlineActiveContent: boolean;
  readonly versioned: boolean;
  readonly notifications: readonly UploadNotification[];
  readonly variables: ReturnType<typeof bucketEnv>;
}

export interface CacheDefinition {
  readonly id: string;
  readonly engine: 'valkey' | 'redis';
  readonly cacheName: string;
  readonly variables: ReturnType<typeof cacheEnv>;
}

export interface AuthDefinition extends Required<AuthIntent> {
  /**
   * The user's `domainPrefix`, or the readable base of the default (`authDomainPrefixBase`), to which the deployed
   * stack appends `-` and 8 characters unique to the stack (`domainPrefixUnique`).
   */
  readonly domainPrefix: string;
  /** True when `domainPrefix` is the default base: the cloud interpreter appends a suffix unique per account and region. */
  readonly domainPrefixUnique: boolean;
  readonly userPoolName: string;
  /** Scope name → description, from the security config. */
  readonly scopes: Readonly<Record<string, string>>;
  readonly appClients: ResolvedConfig['security']['appClients'];
  /** Role name → role (its scopes), from the security config: deployed, one Cognito group each. */
  readonly roles: ResolvedConfig['security']['roles'];
}

/** The intents whose outputs reach functions through variables. */
export type OutputIntent = 'databases' | 'storage' | 'queues' | 'caches' | 'auth' | 'idempotency';

/**
 * A variable's value: fixed text, or an output of an intent (`{ intent: 'databases', id: 'main', output: 'host' }`)
 * that the dev server fills with its local engine's value and the CDK constructs with the resource's attribute.
 */
export type EnvValue =
  | { readonly kind: 'static'; readonly value: string }
  | { readonly kind: 'output'; readonly intent: OutputIntent; readonly id: string; readonly output: string };
