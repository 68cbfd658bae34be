import type { EnvValue, FunctionUnit } from './function-unit.js';
import type { IntentKindModule, KindStage } from './intent-kind.js';
import { authKind } from './auth.js';
import { cachesKind } from './caches.js';
import { cronsKind } from './crons.js';
import { databasesKind } from './databases.js';
import { functionsKind } from './functions.js';
import { idempotencyKind } from './idempotency.js';
import { queuesKind } from './queues.js';
import { storageKind } from './storage.js';

/**
 * Every intent kind of the app model, by its field in `AppDefinition`: the one list `buildStage` reads. The order is
 * the order of the variables in `AppDefinition.environment` and of the kinds' functions in `AppDefinition.units`
 * (both interpreters keep it, so deployed templates stay stable). To add a kind: its module in this folder, its
 * outputs in `outputs.ts`, one line here.
 */
export const INTENT_KIND_REGISTRY = {
  idempotency: idempotencyKind,
  databases: databasesKind,
  storage: storageKind,
  functions: functionsKind,
  queues: queuesKind,
  crons: cronsKind,
  caches: cachesKind,
  auth: authKind,
} as const;

/** The name of a kind: its field in `AppDefinition`. */
export type IntentKindName = keyof typeof INTENT_KIND_REGISTRY;

/** What a kind contributes to the app model. */
export type KindDefinition<K extends IntentKindName> = (typeof INTENT_KIND_REGISTRY)[K] extends IntentKindModule<infer D> ? D : never;

/** The app model's field of every kind (optional for a kind that may be absent, such as `auth`). */
export type KindDefinitions = { readonly [K in IntentKindName as undefined extends KindDefinition<K> ? never : K]: KindDefinition<K> } & {
  readonly [K in IntentKindName as undefined extends KindDefinition<K> ? K : never]?: Exclude<KindDefinition<K>, undefined>;
};

const KIND_NAMES = Object.keys(INTENT_KIND_REGISTRY) as IntentKindName[];

/** A kind's module, typed by its name. */
function moduleOf<K extends IntentKindName>(kind: K): IntentKindModule<KindDefinition<K>> {
  return INTENT_KIND_REGISTRY[kind] as unknown as IntentKindModule<KindDefinition<K>>;
}

/** Every kind's part of the app model for one stage. */
export function buildKinds(stage: KindStage): KindDefinitions {
  const out = {} as Record<IntentKindName, unknown>;
  for (const kind of KIND_NAMES) out[kind] = moduleOf(kind).build(stage);
  return out as KindDefinitions;
}

/** The variables of every kind, in registry order. */
export function kindsEnvironment(definitions: KindDefinitions): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const kind of KIND_NAMES) Object.assign(env, moduleOf(kind).environment(definitions[kind]));
  return env;
}

/** The Lambda functions of every kind, in registry order. */
export function kindsUnits(definitions: KindDefinitions): FunctionUnit[] {
  return KIND_NAMES.flatMap((kind) => moduleOf(kind).units(definitions[kind]));
}
