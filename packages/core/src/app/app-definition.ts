import type { ResolvedBilling } from '../config/billing.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { HttpMethod } from '../discovery/routes.js';
import type { AuthDefinition } from '../intents/auth.js';
import type { CacheDefinition } from '../intents/caches.js';
import type { CronDefinition } from '../intents/crons.js';
import type { DatabaseDefinition } from '../intents/databases.js';
import type { FunctionUnit } from '../intents/function-unit.js';
import type { StandaloneFunctionDefinition } from '../intents/functions.js';
import type { IdempotencyDefinition } from '../intents/idempotency.js';
import type { QueueDefinition } from '../intents/queues.js';
import type { EnvValue, KindDefinitions } from '../intents/registry.js';
import type { BucketDefinition } from '../intents/storage.js';

// The kinds' definitions live in their modules (`src/intents/`); they stay importable from here.
export type { AuthDefinition, BucketDefinition, CacheDefinition, CronDefinition, DatabaseDefinition, EnvValue, FunctionUnit, IdempotencyDefinition, QueueDefinition, StandaloneFunctionDefinition };
export type { UnitKind } from '../intents/function-unit.js';
export type { OutputIntent } from '../intents/registry.js';

/**
 * The app model: what `defineApp` returns for one stage. The dev server and the CDK constructs are two
 * interpreters of this object; every name, size and environment variable in it is final.
 */
export interface AppDefinition extends KindDefinitions {
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
  /**
   * The app's plans when it declares `billing` (checked, `graceSeconds` filled in). Functions get them as data in
   * `FW_BILLING_PLANS`; `fw dev` and the stack read them here.
   */
  readonly billing?: ResolvedBilling;
  /** The stage's idempotency and saga store (its table name). */
  readonly idempotency: IdempotencyDefinition;
  /** Every Lambda function of the app (routes, standalone functions, queue consumers, crons), in a stable order. */
  readonly units: readonly FunctionUnit[];
  /** The variables every function gets: fixed values, or outputs of an intent that each interpreter fills in. */
  readonly environment: Readonly<Record<string, EnvValue>>;
  /** Where the directories are, relative to `rootDir`. */
  readonly directories: { readonly routes: string; readonly functions: string; readonly queues: string; readonly crons: string; readonly lib: string };
  /** The same app for another stage declared in `envs` (names and preset values of that stage). */
  forStage(stage: string): AppDefinition;
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
