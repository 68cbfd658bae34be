import { resolveEnvironment, type EnvValue, type IntentOutputValues, type OutputIntent, type OutputName, type OutputValues } from '@framework/core';
import { InfraError } from '../errors.js';

/**
 * The cloud values of the intents' outputs (`databases`/`main` → `{ host, port, name, secretArn }` as tokens). Each
 * kind's construct provides its outputs, typed by core's `INTENT_OUTPUTS`; `resolve` turns the app model's variables
 * into a function environment through core's one resolver.
 */
export class IntentOutputs {
  private readonly values: Record<string, Record<string, Record<string, string>>> = Object.create(null);

  /** Every output of one intent. */
  public provide<K extends OutputIntent>(intent: K, id: string, values: OutputValues<K>): void {
    for (const [output, value] of Object.entries(values) as Array<[OutputName<K>, string]>) this.set(intent, id, output, value);
  }

  /** One output of one intent. */
  public set<K extends OutputIntent>(intent: K, id: string, output: OutputName<K>, value: string): void {
    const ofKind = (this.values[intent] ??= Object.create(null) as Record<string, Record<string, string>>);
    (ofKind[id] ??= Object.create(null) as Record<string, string>)[output] = value;
  }

  /** The app's variables with their cloud values; throws when the model asks for an output no construct provides. */
  public resolve(environment: Readonly<Record<string, EnvValue>>): Record<string, string> {
    const { values, missing } = resolveEnvironment(environment, this.values as IntentOutputValues);
    const [first] = missing;
    if (first) {
      throw new InfraError('FW_ERR_INFRA_UNKNOWN_OUTPUT', `Variable ${first.variable} needs output "${first.output}" of ${first.intent} "${first.id}", which @framework/infra does not provide. @framework/core and @framework/infra must be the same version: align them in package.json.`);
    }
    return values;
  }
}
