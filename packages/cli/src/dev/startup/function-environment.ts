import { LAMBDA_TZ, type AppDefinition, type FunctionUnit } from '@framework/core';
import { lambdaEnvironment } from '../functions/lambda-environment.js';

/** Variables of the `fw dev` process that functions also get (they run on this machine, not in Lambda). */
const PASS_THROUGH = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'];

/**
 * What a function's worker gets as `process.env`: the app model's variables with their local values (set once the
 * engines have started, then again with their own ports once they are ready), the pass-through variables of this
 * process, the Lambda runtime's own (`AWS_REGION`, `TZ`) and the unit's.
 */
export class FunctionEnvironment {
  private variables: Readonly<Record<string, string>> = {};

  constructor(
    private readonly region: string,
    private readonly buildDir: string,
    /** The app model as it is now (a reload changes units). */
    private readonly currentApp: () => AppDefinition,
  ) {}

  /** The app model's variables with their local values, from now on. */
  set(variables: Readonly<Record<string, string>>): void {
    this.variables = variables;
  }

  /** What every function gets (a spare thread boots with it). */
  base(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of PASS_THROUGH) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    return Object.assign(env, this.variables, { AWS_REGION: this.region, AWS_DEFAULT_REGION: this.region, TZ: LAMBDA_TZ });
  }

  /** What one unit's function gets. */
  forUnit(unit: FunctionUnit): Record<string, string> {
    return { ...this.base(), ...unit.environment, ...lambdaEnvironment(this.currentApp(), unit, this.buildDir) };
  }
}
