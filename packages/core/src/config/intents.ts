import * as t from 'io-ts';
import * as c from './codec.js';
import { parseSchedule, type ScheduleSpec } from '../schedule/schedule-expression.js';

/** Ids of queues, schedules, databases, buckets and caches; each segment of a function id. */
export const INTENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;
const id = c.pattern('an id of letters, digits, "-" or "_" (at most 48, starting with a letter or digit)', INTENT_ID);
const functionId = c.pattern('a function id such as "reports/daily" (segments of letters, digits, "-" or "_")', /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/);
const memorySize = c.integer(128, 10240);
const timeout = c.integer(1, 900);
/**
 * A variable a function intent may add. Names the framework sets (`FW_*`, `LOG_LEVEL`) or Lambda reserves (`AWS_*`,
 * `LAMBDA_*`, `_HANDLER`, `_X_AMZN_TRACE_ID`, `TZ`) are refused: overriding one would break the function or the deploy.
 */
const envName = c.pattern(
  'an environment variable name of letters, digits and "_" that the framework and Lambda do not reserve (not FW_*, AWS_*, LAMBDA_*, LOG_LEVEL, _HANDLER, _X_AMZN_TRACE_ID or TZ)',
  /^(?!(FW_|AWS_|LAMBDA_))(?!(LOG_LEVEL|_HANDLER|_X_AMZN_TRACE_ID|TZ)$)[A-Za-z_][A-Za-z0-9_]*$/,
);

/** A standalone function (`src/functions/<id>.ts`), reachable with `invoke`. Files without an intent get defaults. */
export interface FunctionIntent {
  /** Path below the functions directory without extension, e.g. `reports/daily`. */
  readonly id: string;
  /** MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  /** Seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  readonly description?: string;
  /** Extra environment variables for this function only. @default {} */
  readonly environment?: Readonly<Record<string, string>>;
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

/** A scheduled task (`src/crons/<id>.ts`). */
export interface ScheduleIntent {
  readonly id: string;
  /** Exactly one of `{ cron: '0 12 * * ? *' }` (six fields, UTC) or `{ rate: '5 minutes' }`. */
  readonly schedule: ScheduleSpec;
  /** Seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  /** MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  readonly description?: string;
  /** @default true */
  readonly enabled?: boolean;
  /** Retries by the scheduler when the function fails (with exponential backoff). @default 2 */
  readonly retryAttempts?: number;
}

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

/** One lifecycle rule of a bucket. */
export interface LifecycleRule {
  /** Only objects under this key prefix. @default - every object */
  readonly prefix?: string;
  readonly expireAfterDays?: number;
  readonly infrequentAccessAfterDays?: number;
  readonly archiveAfterDays?: number;
  /** @default 7 (set on every bucket even without rules) */
  readonly abortIncompleteUploadsAfterDays?: number;
}

/** Where a bucket announces that an object arrived. */
export interface UploadNotification {
  /** Id of a queue intent that receives a message per new object. */
  readonly queue?: string;
  /** Id of a standalone function invoked per new object. */
  readonly function?: string;
  /** Only keys under this prefix. @default - every key */
  readonly prefix?: string;
}

/** An object-storage bucket, optionally behind the CDN. */
export interface StorageIntent {
  readonly id: string;
  /** Serve objects through the CDN (origin access control; the bucket stays private). @default false */
  readonly cdn?: boolean;
  /** @default [] */
  readonly lifecycle?: readonly LifecycleRule[];
  /** Browser origins allowed to upload and download directly. @default [] */
  readonly corsOrigins?: readonly string[];
  /** Largest upload a presigned URL accepts, bytes. @default 10485760 (10 MiB) */
  readonly maxUploadBytes?: number;
  /** Content types a presigned upload accepts, e.g. `image/*`. @default - any */
  readonly allowedContentTypes?: readonly string[];
  /**
   * Serve stored types that can run script (HTML, SVG, XML, JavaScript) inline from the bucket's URLs instead of as
   * attachments. Only for buckets that hold trusted pages. @default false
   */
  readonly inlineActiveContent?: boolean;
  /** Keep every version of every object. @default false */
  readonly versioned?: boolean;
  /** @default - none */
  readonly notifications?: readonly UploadNotification[];
}

/** A managed identity provider for the security config's scopes and app clients. */
export interface AuthIntent {
  /** Let users sign themselves up. @default false */
  readonly selfSignUp?: boolean;
  /** @default 'optional' */
  readonly mfa?: 'off' | 'optional' | 'required';
  /** @default 12 */
  readonly passwordMinLength?: number;
  /** @default 60 */
  readonly accessTokenValidityMinutes?: number;
  /**
   * Prefix of the hosted sign-in domain (`https://<prefix>.auth.<region>.amazoncognito.com`). Prefixes are global per
   * region across all AWS accounts; Cognito refuses ones containing `aws`, `amazon` or `cognito`.
   * @default - `{project}-{stage}-` plus a suffix unique to the stack (so to the account and region)
   */
  readonly domainPrefix?: string;
}

/** A cache (ElastiCache Serverless deployed, in-memory locally). */
export interface CacheIntent {
  readonly id: string;
  /** @default 'valkey' */
  readonly engine?: 'valkey' | 'redis';
}

/** Every intent of `defineApp({ infrastructure })`. */
export interface Infrastructure {
  readonly databases?: readonly DatabaseIntent[];
  readonly storage?: readonly StorageIntent[];
  readonly auth?: AuthIntent;
  readonly queues?: readonly QueueIntent[];
  readonly caches?: readonly CacheIntent[];
  readonly schedules?: readonly ScheduleIntent[];
  readonly functions?: readonly FunctionIntent[];
}

/** Words Cognito refuses anywhere in a domain prefix. */
export const RESERVED_DOMAIN_WORDS = ['aws', 'amazon', 'cognito'] as const;

/** Cognito's prefix syntax (1-63 lowercase letters, digits, inner hyphens), without its reserved words. */
const domainPrefix = new t.Type<string, string, unknown>(
  'a Cognito domain prefix',
  (u): u is string => typeof u === 'string' && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(u) && !RESERVED_DOMAIN_WORDS.some((w) => u.includes(w)),
  (u, ctx) => {
    if (typeof u !== 'string' || !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(u)) {
      return t.failure<string>(u, ctx, c.problemMessage('FW_ERR_CONFIG_INVALID_VALUE', `expected a domain prefix of 1 to 63 lowercase letters, digits or "-" (not first or last), got ${c.describeValue(u)}`));
    }
    const words = RESERVED_DOMAIN_WORDS.filter((w) => u.includes(w));
    if (words.length) {
      return t.failure<string>(u, ctx, c.problemMessage('FW_ERR_CONFIG_RESERVED_WORD', `Cognito refuses domain prefixes containing ${words.map((w) => `"${w}"`).join(' or ')}, got ${c.describeValue(u)}. Choose a prefix without ${RESERVED_DOMAIN_WORDS.join(', ')}, or leave domainPrefix out to get a unique default`));
    }
    return t.success(u);
  },
  t.identity,
);

const scheduleCodec = new t.Type<ScheduleSpec, ScheduleSpec, unknown>(
  'exactly one of { cron: "<six fields>" } or { rate: "<n> <unit>" }',
  (u): u is ScheduleSpec => c.isPlainObject(u) && (typeof u.cron === 'string') !== (typeof u.rate === 'string'),
  (u, ctx) => {
    const fail = (text: string) => t.failure<ScheduleSpec>(u, ctx, c.problemMessage('FW_ERR_CONFIG_INVALID_VALUE', text));
    if (!c.isPlainObject(u)) return fail(`expected { cron: "0 12 * * ? *" } or { rate: "5 minutes" }, got ${c.describeValue(u)}`);
    const keys = Object.keys(u);
    const hasCron = u.cron !== undefined;
    const hasRate = u.rate !== undefined;
    if (hasCron === hasRate) return fail(`expected exactly one of "cron" or "rate", got ${hasCron ? 'both' : keys.length ? keys.map((k) => JSON.stringify(k)).join(', ') : 'neither'}`);
    const extra = keys.filter((k) => k !== 'cron' && k !== 'rate');
    if (extra.length) return fail(`expected only "cron" or "rate", got also ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
    const value = hasCron ? u.cron : u.rate;
    if (typeof value !== 'string') return fail(`expected a string for "${hasCron ? 'cron' : 'rate'}", got ${c.describeValue(value)}`);
    const parsed = parseSchedule(hasCron ? { cron: value } : { rate: value });
    if (!parsed.ok) return fail(`${hasCron ? 'cron' : 'rate'} ${parsed.reason}`);
    return t.success(hasCron ? { cron: value } : { rate: value });
  },
  t.identity,
);

export const infrastructureCodec = c.struct<Infrastructure>('an infrastructure object of intents', {
  functions: c.optional(
    c.array(
      c.struct<FunctionIntent>('a function intent { id }', {
        id: c.required(functionId),
        memorySize: c.optional(memorySize),
        timeout: c.optional(timeout),
        description: c.optional(c.text(256)),
        environment: c.optional(c.record(envName, c.text(4096))),
      }),
    ),
  ),
  queues: c.optional(
    c.array(
      c.struct<QueueIntent>('a queue intent { id }', {
        id: c.required(id),
        deadLetterQueue: c.optional(c.boolean),
        batchSize: c.optional(c.integer(1, 10)),
        timeout: c.optional(timeout),
        memorySize: c.optional(memorySize),
        visibilityTimeout: c.optional(c.integer(0, 43200)),
        maxReceiveCount: c.optional(c.integer(1, 1000)),
        retentionDays: c.optional(c.integer(1, 14)),
      }),
    ),
  ),
  schedules: c.optional(
    c.array(
      c.struct<ScheduleIntent>('a schedule intent { id, schedule }', {
        id: c.required(id),
        schedule: c.required(scheduleCodec),
        timeout: c.optional(timeout),
        memorySize: c.optional(memorySize),
        description: c.optional(c.text(256)),
        enabled: c.optional(c.boolean),
        retryAttempts: c.optional(c.integer(0, 185)),
      }),
    ),
  ),
  databases: c.optional(
    c.array(
      c.struct<DatabaseIntent>('a database intent { id }', {
        id: c.required(id),
        engine: c.optional(c.oneOf(['postgres'] as const)),
        databaseName: c.optional(c.pattern('a database name of lowercase letters, digits or "_"', /^[a-z_][a-z0-9_]{0,62}$/)),
        migrationsDir: c.optional(c.pattern('a relative folder path', /^(?!\/)(?!.*\.\.)[\w./-]+$/)),
        engineVersion: c.optional(c.pattern('a PostgreSQL version: a major such as "17" or a major.minor such as "17.9"', /^[1-9]\d(\.\d{1,2})?$/)),
      }),
    ),
  ),
  storage: c.optional(
    c.array(
      c.struct<StorageIntent>('a storage intent { id }', {
        id: c.required(id),
        cdn: c.optional(c.boolean),
        lifecycle: c.optional(
          c.array(
            c.struct<LifecycleRule>('a lifecycle rule', {
              prefix: c.optional(c.text(1024)),
              expireAfterDays: c.optional(c.integer(1, 36500)),
              infrequentAccessAfterDays: c.optional(c.integer(30, 36500)),
              archiveAfterDays: c.optional(c.integer(1, 36500)),
              abortIncompleteUploadsAfterDays: c.optional(c.integer(1, 365)),
            }),
          ),
        ),
        corsOrigins: c.optional(c.array(c.pattern('an origin such as "https://app.example.com" or "*"', /^(\*|https?:\/\/[^\s/]+)$/))),
        maxUploadBytes: c.optional(c.integer(1, 5 * 1024 ** 3)),
        allowedContentTypes: c.optional(c.array(c.pattern('a content type such as "image/png" or "image/*"', /^[\w.+-]+\/(\*|[\w.+-]+)$/))),
        inlineActiveContent: c.optional(c.boolean),
        versioned: c.optional(c.boolean),
        notifications: c.optional(
          c.array(
            c.struct<UploadNotification>('an upload notification { queue } or { function }', {
              queue: c.optional(id),
              function: c.optional(functionId),
              prefix: c.optional(c.text(1024)),
            }),
          ),
        ),
      }),
    ),
  ),
  auth: c.optional(
    c.struct<AuthIntent>('an auth intent', {
      selfSignUp: c.optional(c.boolean),
      mfa: c.optional(c.oneOf(['off', 'optional', 'required'] as const)),
      passwordMinLength: c.optional(c.integer(8, 99)),
      accessTokenValidityMinutes: c.optional(c.integer(5, 1440)),
      domainPrefix: c.optional(domainPrefix),
    }),
  ),
  caches: c.optional(
    c.array(
      c.struct<CacheIntent>('a cache intent { id }', {
        id: c.required(id),
        engine: c.optional(c.oneOf(['valkey', 'redis'] as const)),
      }),
    ),
  ),
});
