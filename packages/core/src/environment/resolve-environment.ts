import type { EnvValue, IntentOutputValues, OutputIntent } from '../intents/registry.js';

/** A variable of the model whose output the interpreter does not provide. */
export interface UnresolvedOutput {
  readonly variable: string;
  readonly intent: OutputIntent;
  readonly id: string;
  readonly output: string;
}

/** The app's variables with the interpreter's values, and the ones it could not fill. */
export interface ResolvedEnvironment {
  readonly values: Record<string, string>;
  /** Empty when every output was provided; each interpreter reports these with its own error. */
  readonly missing: readonly UnresolvedOutput[];
}

/**
 * The one environment resolver both interpreters call: the app model's variables (`AppDefinition.environment`) with
 * fixed values as they are and every output reference replaced by the interpreter's value for it (`fw dev`: its
 * engines' local addresses; the CDK constructs: resource attributes). Keeps the model's order.
 */
export function resolveEnvironment(environment: Readonly<Record<string, EnvValue>>, outputs: IntentOutputValues): ResolvedEnvironment {
  const values: Record<string, string> = {};
  const missing: UnresolvedOutput[] = [];
  for (const [variable, value] of Object.entries(environment)) {
    if (value.kind === 'static') {
      values[variable] = value.value;
      continue;
    }
    // Own properties only: an intent id may be any valid id, `constructor` included.
    const ofKind = outputs[value.intent] as Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
    const provided = ofKind && Object.hasOwn(ofKind, value.id) ? ofKind[value.id] : undefined;
    const resolved = provided && Object.hasOwn(provided, value.output) ? provided[value.output] : undefined;
    if (resolved === undefined) missing.push({ variable, intent: value.intent, id: value.id, output: value.output });
    else values[variable] = resolved;
  }
  return { values, missing };
}
