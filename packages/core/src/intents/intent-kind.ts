import type * as t from 'io-ts';
import type * as codec from '../config/codec.js';
import type { ResolvedSecurity } from '../config/security.js';
import type { PresetName } from '../presets/preset-names.js';
import type { FunctionSettings } from '../presets/settings.js';
import type { ConfigProblem } from '../errors.js';
import type { FunctionUnit } from './function-unit.js';

/** A discovered handler file: its id (`reports/daily`) and project-relative path. */
export interface HandlerFile {
  readonly id: string;
  readonly file: string;
}

/** What a kind needs to build its part of the app model for one stage (already validated by `defineApp`). */
export interface KindStage {
  readonly project: string;
  readonly stage: string;
  /** Absolute project folder, for a kind that discovers its own handler files (`src/ws/`). */
  readonly rootDir: string;
  /** Base + security + the stage's environment, resolved (the parts a kind reads: the stage's `ResolvedConfig`). */
  readonly config: KindStageConfig;
  /**
   * The handler files discovered for each kind, by its `configKey`: `functions` (the functions folder) and every kind
   * with a `handlerFolder` (`queues`: `src/queues`, `schedules`: `src/crons`).
   */
  readonly files: Readonly<Record<string, readonly HandlerFile[]>>;
}

/**
 * The folder holding one handler file per intent of a kind (`src/queues/<id>.ts`): `defineApp` discovers it and
 * reports an intent without its file and a file without its intent.
 */
export interface KindHandlerFolder {
  /** Project-relative, e.g. `src/queues`. */
  readonly dir: string;
  /** What one file is, for messages: `queue consumer`. */
  readonly what: string;
  /** The intent to add for a file that has none, as code: `{ id: 'emails' }`. */
  example(id: string): string;
}

/** What a kind reads of the stage's resolved config (kept narrow: the whole config's settings are the kinds' own). */
export interface KindStageConfig {
  readonly security: ResolvedSecurity;
  readonly settings: { readonly functions: FunctionSettings };
}

/**
 * The stage settings of a kind (sizes a preset chooses, e.g. `databases.instanceClass`): a group of the stage's
 * `settings` and of an environment's `overrides`, named after the kind, with a value for every field in each preset.
 */
export interface KindSettings<Settings> {
  /** How the group reads in messages: `database settings`. */
  readonly label: string;
  /** The codec of each field (built from the kit: the module stays free of io-ts at run time). */
  fields(kit: Pick<CodecKit, 'c'>): codec.Fields<Settings>;
  /** The value of every field in each preset. */
  readonly presets: Readonly<Record<PresetName, Settings>>;
}

/**
 * What a kind's `check` sees besides its own intent: the ids the other kinds declare and the function files found,
 * so a kind that names other units (a queue, a cron, a function) can say which one is missing.
 */
export interface KindCheckContext {
  /** The ids of the intents under `infrastructure.<configKey>` (a list kind); empty when it has none. */
  intentIds(configKey: string): readonly string[];
  /** The function files discovered in `functionsDir` (`src/functions`). */
  readonly functionFiles: readonly HandlerFile[];
  /** The project-relative functions folder, for messages. */
  readonly functionsDir: string;
  /**
   * Each declared stage with its functions' default timeout (seconds: its override, else its preset's), unknown
   * when the stage's environment is too broken to tell: for a kind whose limits must cover a function's timeout.
   */
  readonly stageFunctionTimeouts: readonly { readonly stage: string; readonly timeout: number | undefined }[];
}

/**
 * A variable's value as a kind states it: fixed text, or one of the kind's own outputs of one intent (the registry
 * adds the kind's name, giving the model's `EnvValue`).
 */
export type KindValue<Output extends string> = { readonly kind: 'static'; readonly value: string } | { readonly kind: 'output'; readonly id: string; readonly output: Output };

/**
 * One intent kind of the app model (`databases`, `queues`, ...): the outputs its intents give functions, how its
 * intents become the model's definitions, the variables they give every function and the Lambda functions they run.
 * The registry (`registry.ts`) lists every kind; `buildStage` and both interpreters read the registry's types, so a
 * kind is this module plus its entry there.
 */
/**
 * The codec building blocks an intent codec is made of, handed to each kind by `config/intents.ts`: the kind modules
 * import io-ts as types only, so `@framework/core/names` can export their variable names into a Lambda bundle.
 */
export interface CodecKit {
  readonly c: typeof codec;
  readonly t: typeof t;
  /** An intent id: letters, digits, `-` or `_` (at most 48, starting with a letter or digit). */
  readonly id: codec.Codec<string>;
  /** A function id such as `reports/daily`. */
  readonly functionId: codec.Codec<string>;
  /** MB. */
  readonly memorySize: codec.Codec<number>;
  /** Seconds. */
  readonly timeout: codec.Codec<number>;
}

export interface IntentKindModule<Intent, Definitions, Output extends string = never, ConfigKey extends string = never, Settings = never> {
  /** Its stage settings, when a preset sizes it: `PRESETS` and the settings codecs read them from here. */
  readonly settings?: KindSettings<Settings>;
  /** Its key under `defineApp({ infrastructure })`, whose value `build` receives; none for a kind without intents. */
  readonly configKey?: ConfigKey;
  /**
   * For a kind whose intents are a list with ids: how the ids read (`flat`: one segment; `path`: `/`-separated
   * segments, as function ids). `defineApp` then refuses duplicate ids, and ids that share a variable token when the
   * kind has outputs.
   */
  readonly ids?: 'flat' | 'path';
  /** For a list kind whose every intent has its handler file in one folder (`src/queues/<id>.ts`). */
  readonly handlerFolder?: KindHandlerFolder;
  /**
   * For a kind that discovers its own handler files in `build` (`src/ws/`, read from `KindStage.rootDir`): that folder,
   * project-relative. A file added there or removed changes the app model, so `fw dev` watches it as it watches the
   * routes folder (with the `handlerFolder` of the other kinds).
   */
  readonly sourceDir?: string;
  /** The codec of its value under `infrastructure` (with `configKey`). */
  readonly codec?: (kit: CodecKit) => codec.Codec<Intent>;
  /**
   * The outputs of one intent that reach functions through variables (`host`, `url`, ...): each interpreter provides
   * exactly these (the CDK constructs as resource attributes, `fw dev`'s engine as local values). Empty: none.
   */
  readonly outputs: readonly Output[];
  /**
   * The checks its codec cannot make (fields that exclude each other, ids of other units it names), run by `defineApp`
   * on a decoded intent with the other cross-checks: every problem at once, before any stage is built.
   */
  check?(intent: Intent, context: KindCheckContext): ConfigProblem[];
  /** The kind's part of the app model for one stage: names (from `naming/`), sizes (intent, else preset), variables. */
  build(intent: Intent | undefined, stage: KindStage): Definitions;
  /** Variables the kind gives every function, in a stable order: fixed values or references to its outputs. */
  environment(definitions: Definitions): Record<string, KindValue<Output>>;
  /** The Lambda functions of the kind, in a stable order (part of `AppDefinition.units`). */
  units(definitions: Definitions): readonly FunctionUnit[];
}

/** A variable with a fixed value (the same locally and deployed). */
export function fixedValue(value: string): KindValue<never> {
  return { kind: 'static', value };
}

/** A variable whose value is output `output` of intent `id` of the kind, filled in by each interpreter. */
export function outputRef<Output extends string>(id: string, output: Output): KindValue<Output> {
  return { kind: 'output', id, output };
}
