/*
 * The intents of `defineApp({ infrastructure })` as jsii structs, so `.projenrc.ts` can declare them in any jsii
 * language. They mirror `@framework/core`'s intent types field by field; where core uses a shape jsii cannot carry
 * (a record, a union), the struct uses an array of structs or optional alternatives, and the renderer turns it back
 * into core's shape in `fw.config.ts`.
 */

/** One environment variable of a function (core's `environment` record, as a jsii-friendly list). */
export interface EnvironmentVariable {
  readonly name: string;
  readonly value: string;
}

/** A standalone function (`src/functions/<id>.ts`), reachable with `invoke`. */
export interface FunctionIntent {
  /** Path below `src/functions/` without extension, e.g. `reports/daily`. */
  readonly id: string;
  /** MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  /** Seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  /** @default - none */
  readonly description?: string;
  /** Extra environment variables for this function only. @default - none */
  readonly environment?: EnvironmentVariable[];
}

/** A queue with its consumer (`src/queues/<id>.ts`). */
export interface QueueIntent {
  readonly id: string;
  /** Move messages that failed `maxReceiveCount` times to a dead-letter queue. @default true */
  readonly deadLetterQueue?: boolean;
  /** Messages per invocation, 1 to 10. @default 10 */
  readonly batchSize?: number;
  /** Consumer timeout, seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  /** Consumer memory, MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  /** Seconds a received message stays hidden before redelivery. @default - six times the consumer timeout (at least 30) */
  readonly visibilityTimeout?: number;
  /** Receives before a message moves to the dead-letter queue. @default 3 */
  readonly maxReceiveCount?: number;
  /** How long an unconsumed message is kept, days (1-14). @default 4 */
  readonly retentionDays?: number;
}

/** A scheduled task (`src/crons/<id>.ts`). Give exactly one of `cron` or `rate`. */
export interface ScheduleIntent {
  readonly id: string;
  /** Six-field cron expression in the scheduler's syntax, UTC, e.g. `0 12 * * ? *`. @default - use `rate` */
  readonly cron?: string;
  /** A rate such as `5 minutes` or `1 hour`. @default - use `cron` */
  readonly rate?: string;
  /** Seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  /** MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  /** @default - none */
  readonly description?: string;
  /** @default true */
  readonly enabled?: boolean;
  /** Retries by the scheduler when the function fails (with exponential backoff). @default 2 */
  readonly retryAttempts?: number;
}

/** A PostgreSQL database. Its size comes from the stage's `databases` settings. */
export interface DatabaseIntent {
  readonly id: string;
  /** Database name inside the server. @default - the id with `-` as `_` */
  readonly databaseName?: string;
  /** Folder of SQL migrations, relative to the project. @default 'migrations' */
  readonly migrationsDir?: string;
  /**
   * PostgreSQL deployed: a major (`'17'`, the newest minor the framework pins for it) or an exact `'17.9'`.
   * @default '17'
   */
  readonly engineVersion?: string;
}

/** One lifecycle rule of a bucket. */
export interface LifecycleRule {
  /** Only objects under this key prefix. @default - every object */
  readonly prefix?: string;
  /** @default - never */
  readonly expireAfterDays?: number;
  /** @default - never */
  readonly infrequentAccessAfterDays?: number;
  /** @default - never */
  readonly archiveAfterDays?: number;
  /** @default 7 */
  readonly abortIncompleteUploadsAfterDays?: number;
}

/** Where a bucket announces that an object arrived: give exactly one of `queue` or `function`. */
export interface UploadNotification {
  /** Id of a queue intent that receives a message per new object. @default - use `function` */
  readonly queue?: string;
  /** Id of a standalone function invoked per new object. @default - use `queue` */
  readonly function?: string;
  /** Only keys under this prefix. @default - every key */
  readonly prefix?: string;
}

/** An object-storage bucket, optionally behind the CDN. */
export interface StorageIntent {
  readonly id: string;
  /** Serve objects through the CDN. @default false */
  readonly cdn?: boolean;
  /** @default - none */
  readonly lifecycle?: LifecycleRule[];
  /** Browser origins allowed to upload and download directly. @default - none */
  readonly corsOrigins?: string[];
  /** Largest upload a presigned URL accepts, bytes. @default 10485760 */
  readonly maxUploadBytes?: number;
  /** Content types a presigned upload accepts, e.g. `image/*`. @default - any */
  readonly allowedContentTypes?: string[];
  /**
   * Serve stored types that can run script (HTML, SVG, XML, JavaScript) inline from the bucket's URLs instead of as
   * attachments. Only for buckets that hold trusted pages. @default false
   */
  readonly inlineActiveContent?: boolean;
  /** Keep every version of every object. @default false */
  readonly versioned?: boolean;
  /** @default - none */
  readonly notifications?: UploadNotification[];
}

/** MFA setting of the identity provider. */
export enum MfaMode {
  OFF = 'off',
  OPTIONAL = 'optional',
  REQUIRED = 'required',
}

/** A managed identity provider for the declared scopes and app clients. */
export interface AuthIntent {
  /** Let users sign themselves up. @default false */
  readonly selfSignUp?: boolean;
  /** @default MfaMode.OPTIONAL */
  readonly mfa?: MfaMode;
  /** @default 12 */
  readonly passwordMinLength?: number;
  /** @default 60 */
  readonly accessTokenValidityMinutes?: number;
  /**
   * Prefix of the hosted sign-in domain. Global per region across all accounts; Cognito refuses `aws`, `amazon`, `cognito`.
   * @default - `{project}-{stage}-` plus a suffix unique to the deployed stack
   */
  readonly domainPrefix?: string;
}

/** Cache engine. */
export enum CacheEngine {
  VALKEY = 'valkey',
  REDIS = 'redis',
}

/** Settings of the WebSocket API of `src/ws/` (its files alone make the API). */
export interface WebSocketIntent {
  /**
   * The field of a JSON message that names its route (`$request.body.<field>`, dots for nested fields).
   * @default '$request.body.action'
   */
  readonly routeSelectionExpression?: string;
}

/**
 * The cloud side of `@framework/notify`: SES identity, configuration set and delivery-events topic, and the send
 * permissions of the dispatcher units (its queue's consumer and the sweeper cron) only.
 */
export interface NotifyIntent {
  /** The id of the queue whose consumer is the dispatcher (the queue `notify.dispatch` sends to). */
  readonly queue: string;
  /** The id of the schedule whose cron sweeps the outbox. @default - none */
  readonly sweeper?: string;
  /** The id of the function (`src/functions/`) subscribed to the SES delivery-events topic. @default - none */
  readonly eventsFunction?: string;
  /** The domain mail is sent from. Exactly one of `emailDomain`, `emailAddress`. @default - none */
  readonly emailDomain?: string;
  /** The one address mail is sent from. Exactly one of `emailDomain`, `emailAddress`. @default - none */
  readonly emailAddress?: string;
  /** End User Messaging origination identity ARNs the dispatcher may send SMS from. @default - none */
  readonly smsOriginationArns?: string[];
  /** WhatsApp phone-number-id ARNs the dispatcher may send from. @default - none */
  readonly whatsappPhoneNumberArns?: string[];
  /** SNS platform application ARNs whose endpoints the dispatcher may publish to. @default - none */
  readonly pushPlatformApplicationArns?: string[];
}

/** A cache (managed deployed, in-memory locally). */
export interface CacheIntent {
  readonly id: string;
  /** @default CacheEngine.VALKEY */
  readonly engine?: CacheEngine;
}

/**
 * The infrastructure intents of an app, one field per kind, named as `defineApp({ infrastructure })` names them:
 * `FrameworkApp`'s options and `FrameworkApp.addIntents` take them. A kind added here needs its entry in
 * `INTENT_KINDS` (how `fw.config.ts` renders it; the compiler asks for it) and no method of its own.
 */
export interface InfrastructureIntents {
  /** The identity provider. @default - the template's (every template has one) */
  readonly auth?: AuthIntent;
  /** Standalone functions (`src/functions/<id>.ts`). @default - none */
  readonly functions?: FunctionIntent[];
  /** Queues and their consumers (`src/queues/<id>.ts`). @default - the template's */
  readonly queues?: QueueIntent[];
  /** Scheduled tasks (`src/crons/<id>.ts`). @default - none */
  readonly schedules?: ScheduleIntent[];
  /** PostgreSQL databases. @default - the template's */
  readonly databases?: DatabaseIntent[];
  /** Object-storage buckets. @default - the template's */
  readonly storage?: StorageIntent[];
  /** Caches. @default - none */
  readonly caches?: CacheIntent[];
  /** Settings of the WebSocket API of `src/ws/` (its files alone make the API). @default - none */
  readonly ws?: WebSocketIntent;
  /** The notify infrastructure (`@framework/notify`): SES identity and events, the dispatcher's permissions. @default - none */
  readonly notify?: NotifyIntent;
}
