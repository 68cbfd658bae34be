import type { Codec } from '../config/codec.js';
import type { ConfigProblem } from '../errors.js';
import type { HandlerKind, RuntimeHandlerKind } from '../handlers/handler-kind.js';
import type { FunctionUnit } from './function-unit.js';
import type { CodecKit, IntentKindModule, KindCheckContext, KindHandlerFolder, KindSettings, KindStage } from './intent-kind.js';
import { authKind } from './auth.js';
import { cachesKind } from './caches.js';
import { cronsKind } from './crons.js';
import { databasesKind } from './databases.js';
import { functionsKind } from './functions.js';
import { idempotencyKind } from './idempotency.js';
import { notifyKind } from './notify.js';
import { queuesKind } from './queues.js';
import { storageKind } from './storage.js';
import { wsKind } from './ws.js';

export * from './auth.js';
export * from './caches.js';
export * from './crons.js';
export * from './databases.js';
export * from './functions.js';
export * from './idempotency.js';
export * from './notify.js';
export * from './queues.js';
export * from './storage.js';
export * from './ws.js';

/**
 * Every intent kind of the app model, by its field in `AppDefinition`: the one list `buildStage` reads and every type
 * below derives from. The order is the order of the variables in `AppDefinition.environment` and of the kinds'
 * functions in `AppDefinition.units` (both interpreters keep it, so deployed templates stay stable). To add a kind:
 * its module in this folder, its import, export and entry here; the compiler then points at the interpreters.
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
  ws: wsKind,
  notify: notifyKind,
} as const;

/**
 * The handler kinds intent kinds bring (`handlerInfo.kind`), each with the kind that owns it: the handler reader
 * (`handlerInfoOf`) keeps these kinds and reads any other but `task` as `http`. A kind adds its handler kind to
 * `HandlerKinds` from its module; this record then does not compile until it names it too.
 */
export const KIND_HANDLERS: { readonly [H in Exclude<HandlerKind, RuntimeHandlerKind>]: IntentKindName } = {
  ws: 'ws',
};

/** Whether `kind` is a handler kind an intent kind brings (`ws`). */
export function isIntentHandlerKind(kind: unknown): kind is Exclude<HandlerKind, RuntimeHandlerKind> {
  return typeof kind === 'string' && Object.hasOwn(KIND_HANDLERS, kind);
}

/** The name of a kind: its field in `AppDefinition`. */
export type IntentKindName = keyof typeof INTENT_KIND_REGISTRY;

/** What a kind contributes to the app model. */
export type KindDefinition<K extends IntentKindName> = K extends IntentKindName ? ((typeof INTENT_KIND_REGISTRY)[K] extends IntentKindModule<infer _I, infer D, string, string, infer _S> ? D : never) : never;

/** The intents of a kind as `defineApp({ infrastructure })` takes them. */
export type KindIntent<K extends IntentKindName> = K extends IntentKindName ? ((typeof INTENT_KIND_REGISTRY)[K] extends IntentKindModule<infer I, unknown, string, string, infer _S> ? I : never) : never;

/** A kind's key under `defineApp({ infrastructure })`, if it has intents. */
export type KindConfigKey<K extends IntentKindName> = (typeof INTENT_KIND_REGISTRY)[K] extends { readonly configKey?: infer C } ? (C extends string ? C : never) : never;

/** `defineApp({ infrastructure })`'s field of every kind that has intents (all optional). */
export type KindIntents = { readonly [K in IntentKindName as KindConfigKey<K>]?: KindIntent<K> };

/** The app model's field of every kind (optional for a kind that may be absent, such as `auth`). */
export type KindDefinitions = { readonly [K in IntentKindName as undefined extends KindDefinition<K> ? never : K]: KindDefinition<K> } & {
  readonly [K in IntentKindName as undefined extends KindDefinition<K> ? K : never]?: Exclude<KindDefinition<K>, undefined>;
};

/** The output names of a kind, e.g. `'host' | 'port' | 'name' | 'secretArn'` for databases. */
export type OutputName<K extends IntentKindName> = (typeof INTENT_KIND_REGISTRY)[K]['outputs'][number];

/** The kinds whose outputs reach functions through variables. */
export type OutputIntent = { [K in IntentKindName]: [OutputName<K>] extends [never] ? never : K }[IntentKindName];

/** Every output of one intent of kind `K` with its value: what an interpreter provides per intent id. */
export type OutputValues<K extends OutputIntent> = { readonly [O in OutputName<K>]: string };

/** What an interpreter provides: kind → intent id → output → value. */
export type IntentOutputValues = { readonly [K in OutputIntent]?: Readonly<Record<string, OutputValues<K>>> };

/**
 * The outputs of each kind that reach functions through variables (typed constant): the contract between the app
 * model and its two interpreters. The CDK constructs provide each as a resource attribute, `fw dev`'s engines as a
 * local value; both are typed from it, so a kind whose outputs an interpreter does not provide does not compile.
 */
export const INTENT_OUTPUTS = Object.fromEntries(
  Object.entries(INTENT_KIND_REGISTRY)
    .filter(([, kind]) => kind.outputs.length > 0)
    .map(([name, kind]) => [name, kind.outputs]),
) as unknown as { readonly [K in OutputIntent]: readonly OutputName<K>[] };

/**
 * A variable's value: fixed text, or an output of an intent (`{ intent: 'databases', id: 'main', output: 'host' }`)
 * that the dev server fills with its local engine's value and the CDK constructs with the resource's attribute.
 */
export type EnvValue =
  | { readonly kind: 'static'; readonly value: string }
  | { [K in OutputIntent]: { readonly kind: 'output'; readonly intent: K; readonly id: string; readonly output: OutputName<K> } }[OutputIntent];

const KIND_NAMES = Object.keys(INTENT_KIND_REGISTRY) as IntentKindName[];

/** A kind's module, typed by its name. */
function moduleOf<K extends IntentKindName>(kind: K): IntentKindModule<KindIntent<K>, KindDefinition<K>, OutputName<K>> {
  return INTENT_KIND_REGISTRY[kind] as unknown as IntentKindModule<KindIntent<K>, KindDefinition<K>, OutputName<K>>;
}

/** Every kind's part of the app model for one stage, each from its intents under `infrastructure`. */
export function buildKinds(infrastructure: KindIntents, stage: KindStage): KindDefinitions {
  const out = {} as Record<IntentKindName, unknown>;
  for (const kind of KIND_NAMES) {
    const module = moduleOf(kind);
    const intents = module.configKey === undefined ? undefined : (infrastructure as Readonly<Record<string, unknown>>)[module.configKey];
    out[kind] = module.build(intents as KindIntent<typeof kind> | undefined, stage);
  }
  return out as KindDefinitions;
}

/**
 * The order `infrastructure`'s fields are checked and listed in (the order of the first release, so problems read as
 * they always did); a kind added later comes after these, in registry order.
 */
const CONFIG_ORDER: readonly string[] = ['functions', 'queues', 'schedules', 'databases', 'storage', 'auth', 'caches'];

/** The kinds that have intents, in `CONFIG_ORDER`. */
function kindsInConfigOrder(): Array<IntentKindModule<unknown, unknown, string, string> & { readonly configKey: string }> {
  const keyed = KIND_NAMES.map((kind) => INTENT_KIND_REGISTRY[kind] as IntentKindModule<unknown, unknown, string, string>).filter((m): m is IntentKindModule<unknown, unknown, string, string> & { readonly configKey: string } => m.configKey !== undefined);
  const rank = (key: string) => (CONFIG_ORDER.includes(key) ? CONFIG_ORDER.indexOf(key) : CONFIG_ORDER.length);
  return keyed.map((m, index) => ({ m, index })).sort((a, b) => rank(a.m.configKey) - rank(b.m.configKey) || a.index - b.index).map(({ m }) => m);
}

/** The codec of every kind's intents under its `configKey`, in `CONFIG_ORDER`: what `infrastructureCodec` checks. */
export function kindCodecs(kit: CodecKit): Record<string, Codec<unknown>> {
  return Object.fromEntries(kindsInConfigOrder().flatMap((m) => (m.codec ? [[m.configKey, m.codec(kit)]] : [])));
}

/** Every kind's own checks (`check`) of its decoded intents under `infrastructure`, in `CONFIG_ORDER`. */
export function checkKinds(infrastructure: Readonly<Record<string, unknown>>, context: KindCheckContext): ConfigProblem[] {
  return kindsInConfigOrder().flatMap((m) => {
    const intent = infrastructure[m.configKey];
    return m.check && intent !== undefined ? m.check(intent, context) : [];
  });
}

/** A kind whose intents are a list with ids, as `defineApp`'s cross-checks see it. */
export interface IntentListKind {
  /** Its key under `infrastructure`. */
  readonly key: string;
  readonly ids: 'flat' | 'path';
  /** Its ids become variable tokens (it has outputs), so two ids must not share one. */
  readonly tokens: boolean;
}

/** The kinds whose intents are a list with ids, in `CONFIG_ORDER`. */
export function intentListKinds(): IntentListKind[] {
  return kindsInConfigOrder().flatMap((m) => (m.ids ? [{ key: m.configKey, ids: m.ids, tokens: m.outputs.length > 0 }] : []));
}

/** A kind whose intents each have a handler file in one folder, as `defineApp` discovers and matches them. */
export interface HandlerFolderKind extends KindHandlerFolder {
  /** Its key under `infrastructure` (and in `KindStage.files`). */
  readonly key: string;
}

/** The kinds with a handler folder (`src/queues`, `src/crons`), in `CONFIG_ORDER`. */
export function handlerFolderKinds(): HandlerFolderKind[] {
  return kindsInConfigOrder().flatMap((m) => (m.handlerFolder ? [{ key: m.configKey, dir: m.handlerFolder.dir, what: m.handlerFolder.what, example: m.handlerFolder.example }] : []));
}

/**
 * The project-relative folders the kinds discover handler files in (`src/queues`, `src/crons`, `src/ws`), in registry
 * order: a file added or removed there changes the app model (besides the routes and functions folders).
 */
export function kindSourceFolders(): string[] {
  return KIND_NAMES.flatMap((kind) => {
    const module = INTENT_KIND_REGISTRY[kind] as IntentKindModule<unknown, unknown, string, string>;
    return [module.handlerFolder?.dir, module.sourceDir].filter((dir): dir is string => dir !== undefined);
  });
}

/** A kind's stage settings, by the kind's name (its group under `settings` and `overrides`). */
export type KindSettingsOf<K extends IntentKindName> = (typeof INTENT_KIND_REGISTRY)[K] extends { readonly settings?: KindSettings<infer S> } ? S : never;

/** The settings groups of the kinds that have stage settings (`databases`, `caches`), typed from the registry. */
export type KindSettingsGroups = { readonly [K in IntentKindName as [KindSettingsOf<K>] extends [never] ? never : K]: KindSettingsOf<K> };

/** The kinds with stage settings, in registry order: their group name and settings. */
export function kindSettings(): Array<{ readonly group: string; readonly settings: KindSettings<Record<string, unknown>> }> {
  return KIND_NAMES.flatMap((kind) => {
    const settings = (INTENT_KIND_REGISTRY[kind] as { readonly settings?: KindSettings<Record<string, unknown>> }).settings;
    return settings ? [{ group: kind, settings }] : [];
  });
}

/** The variables of every kind, in registry order, each output reference naming its kind. */
export function kindsEnvironment(definitions: KindDefinitions): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const kind of KIND_NAMES) {
    for (const [name, value] of Object.entries(moduleOf(kind).environment(definitions[kind]))) {
      env[name] = (value.kind === 'static' ? value : { kind: 'output', intent: kind, id: value.id, output: value.output }) as EnvValue;
    }
  }
  return env;
}

/** The Lambda functions of every kind, in registry order. */
export function kindsUnits(definitions: KindDefinitions): FunctionUnit[] {
  return KIND_NAMES.flatMap((kind) => moduleOf(kind).units(definitions[kind]));
}
