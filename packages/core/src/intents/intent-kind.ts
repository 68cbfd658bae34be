import type { Infrastructure } from '../config/intents.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { DiscoveredUnit } from '../discovery/units.js';
import type { FunctionUnit } from './function-unit.js';

/** What a kind needs to build its part of the app model for one stage (already validated by `defineApp`). */
export interface KindStage {
  readonly project: string;
  readonly stage: string;
  /** Base + security + the stage's environment, resolved. */
  readonly config: ResolvedConfig;
  readonly infrastructure: Infrastructure;
  /** The handler files discovered in each folder (`src/functions`, `src/queues`, `src/crons`). */
  readonly files: { readonly functions: readonly DiscoveredUnit[]; readonly queues: readonly DiscoveredUnit[]; readonly crons: readonly DiscoveredUnit[] };
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
export interface IntentKindModule<Definitions, Output extends string = never> {
  /**
   * The outputs of one intent that reach functions through variables (`host`, `url`, ...): each interpreter provides
   * exactly these (the CDK constructs as resource attributes, `fw dev`'s engine as local values). Empty: none.
   */
  readonly outputs: readonly Output[];
  /** The kind's part of the app model for one stage: names (from `naming/`), sizes (intent, else preset), variables. */
  build(stage: KindStage): Definitions;
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
