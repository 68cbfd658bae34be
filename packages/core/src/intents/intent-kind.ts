import type { Infrastructure } from '../config/intents.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { DiscoveredUnit } from '../discovery/units.js';
import type { EnvValue, FunctionUnit } from './function-unit.js';
import type { OutputIntent, OutputName } from './outputs.js';

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
 * One intent kind of the app model (`databases`, `queues`, ...): how its intents become the model's definitions, the
 * variables they give every function and the Lambda functions they run. The registry (`registry.ts`) lists every
 * kind; `buildStage` reads only the registry, so a kind is one module plus one line there.
 */
export interface IntentKindModule<Definitions> {
  /** The kind's part of the app model for one stage: names (from `naming/`), sizes (intent, else preset), variables. */
  build(stage: KindStage): Definitions;
  /**
   * Variables the kind gives every function: fixed values, or references to its outputs that each interpreter fills
   * in (`outputRef`). Empty for kinds without outputs.
   */
  environment(definitions: Definitions): Record<string, EnvValue>;
  /** The Lambda functions of the kind, in a stable order (part of `AppDefinition.units`). */
  units(definitions: Definitions): readonly FunctionUnit[];
}

/** A variable with a fixed value (the same locally and deployed). */
export function fixedValue(value: string): EnvValue {
  return { kind: 'static', value };
}

/** A variable whose value is output `output` of intent `id` of kind `intent`, filled in by each interpreter. */
export function outputRef<K extends OutputIntent>(intent: K, id: string, output: OutputName<K>): EnvValue {
  return { kind: 'output', intent, id, output } as EnvValue;
}
