import { billingPlansVariable, type ResolvedBilling } from '../config/billing.js';
import { ENV } from '../environment/variables.js';
import { kindsEnvironment, type EnvValue, type KindDefinitions } from '../intents/registry.js';

/** The identity of a stage, which every function gets. */
export interface StageIdentity {
  readonly project: string;
  readonly stage: string;
  readonly region: string;
  readonly logLevel: string;
}

/**
 * The variables every function of the app gets: the stage's identity, then each kind's (registry order). Fixed values
 * are final; outputs are filled in by the interpreter (local engine address by `fw dev`, resource attribute by the
 * CDK constructs) through `resolveEnvironment`, so both inject the same names.
 */
export function buildEnvironment(identity: StageIdentity, kinds: KindDefinitions, billing?: ResolvedBilling): Record<string, EnvValue> {
  const fixedValue = (value: string): EnvValue => ({ kind: 'static', value });
  return {
    [ENV.project]: fixedValue(identity.project),
    [ENV.stage]: fixedValue(identity.stage),
    [ENV.region]: fixedValue(identity.region),
    [ENV.logLevel]: fixedValue(identity.logLevel),
    ...kindsEnvironment(kinds),
    // The plans as data: `@framework-pro/billing` reads them without loading the config codecs.
    ...(billing ? { [ENV.billingPlans]: fixedValue(billingPlansVariable(billing)) } : {}),
  };
}
