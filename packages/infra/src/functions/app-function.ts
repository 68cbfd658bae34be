import { Duration, RemovalPolicy } from 'aws-cdk-lib/core';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { LAMBDA_NODE_OPTIONS, functionLogGroupName, type EnvironmentSettings, type FunctionUnit } from '@framework/core';
import { Construct } from 'constructs';
import type { FunctionBundle } from '../bundling/bundle-app.js';
import { acknowledgeNagFindings } from '../checks/nag-suppressions.js';
import type { AppNetwork } from '../network/app-network.js';
import { bundleCode } from './bundle-code.js';

/** Props of `AppFunction`. */
export interface AppFunctionProps {
  readonly unit: FunctionUnit;
  readonly bundle: Pick<FunctionBundle, 'directory' | 'handler'>;
  /** Runtime, architecture, tracing and log retention, from the stage's preset. */
  readonly settings: EnvironmentSettings;
  /** The complete environment (the app's variables with their cloud values, then the unit's own). */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * The network to join. Only functions that use a database or cache are placed in the VPC (cold starts and NAT
   * costs stay out of the others).
   * @default - not in the VPC
   */
  readonly network?: AppNetwork;
  /**
   * An execution role shared with other functions of identical grants (`FrameworkStack`'s `shareRoles`). It must
   * carry the managed policies Lambda needs (basic execution, and VPC access for a function in the VPC).
   * @default - a role of its own
   */
  readonly role?: iam.IRole;
}

/**
 * Variables a deployed function gets beyond the app model's: source maps for stack traces (core's value; `fw dev`
 * sets the same with Lambda's other variables). The test comparing deployed and local variables allows exactly these.
 */
export const DEPLOYED_ONLY_ENV: Readonly<Record<string, string>> = { NODE_OPTIONS: LAMBDA_NODE_OPTIONS };

/**
 * One deployed function of the app: name, memory and timeout from the unit, runtime and architecture from the
 * preset, code from its own bundle folder, and its own log group with the preset's retention (created here so the
 * retention applies from the first invocation and the group goes away with the stack).
 */
export class AppFunction extends Construct {
  public readonly unit: FunctionUnit;
  public readonly function: lambda.Function;
  public readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    const { unit, settings } = props;
    this.unit = unit;
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: functionLogGroupName(unit.functionName),
      retention: settings.logs.retentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.function = new lambda.Function(this, 'Function', {
      functionName: unit.functionName,
      description: 'description' in unit && typeof unit.description === 'string' ? unit.description : `${unit.kind} ${unit.id}`,
      runtime: settings.functions.runtime === 'nodejs20.x' ? lambda.Runtime.NODEJS_20_X : lambda.Runtime.NODEJS_22_X,
      architecture: settings.functions.architecture === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64,
      memorySize: unit.memorySize,
      timeout: Duration.seconds(unit.timeout),
      handler: props.bundle.handler,
      // Our own hash of the folder bundleApp wrote, staged in the assembly before CDK would copy it (see bundle-code.ts).
      code: bundleCode(this, props.bundle.directory),
      environment: { ...props.environment, ...DEPLOYED_ONLY_ENV },
      tracing: settings.functions.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      logGroup: this.logGroup,
      ...(props.role ? { role: props.role } : {}),
      ...(props.network
        ? { vpc: props.network.vpc, vpcSubnets: props.network.privateSubnets, securityGroups: [props.network.functionSecurityGroup] }
        : {}),
    });
    if (settings.functions.tracing) acknowledgeNagFindings(this.function.role!, 'tracing', ['Resource::*']);
  }
}
