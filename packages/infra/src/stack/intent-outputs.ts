import type { EnvValue } from '@framework/core';
import { InfraError } from '../errors.js';

/**
 * The cloud values of the intents' outputs (`databases:main:host` → the cluster endpoint token). Each intent's
 * construct registers its outputs; `resolve` turns the app model's variables into a function environment.
 */
export class IntentOutputs {
  private readonly values = new Map<string, string>();

  public set(intent: string, id: string, output: string, value: string): void {
    this.values.set(`${intent}:${id}:${output}`, value);
  }

  /** The app's variables with their cloud values; throws when the model asks for an output no construct provides. */
  public resolve(environment: Readonly<Record<string, EnvValue>>): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(environment)) {
      if (value.kind === 'static') {
        env[name] = value.value;
        continue;
      }
      const resolved = this.values.get(`${value.intent}:${value.id}:${value.output}`);
      if (resolved === undefined) {
        throw new InfraError('FW_ERR_INFRA_UNKNOWN_OUTPUT', `Variable ${name} needs output "${value.output}" of ${value.intent} "${value.id}", which @framework/infra does not provide. @framework/core and @framework/infra must be the same version: align them in package.json.`);
      }
      env[name] = resolved;
    }
    return env;
  }
}
