import { App, Validations, type StackProps } from 'aws-cdk-lib/core';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { AppDefinition } from '@framework/core';
import { loadCdkNag } from '../checks/load-cdk-nag.js';
import { applyNagSuppressions } from '../checks/nag-suppressions.js';
import { FrameworkStack, type FrameworkStackProps } from '../stack/framework-stack.js';

/** Options of `buildCdkApp` / `synthesizeApp`. */
export interface SynthesizeOptions extends Omit<FrameworkStackProps, 'app' | keyof StackProps> {
  /** Cloud assembly folder. @default - `cdk.out` in the project */
  readonly outdir?: string;
  /** Run cdk-nag's AwsSolutions checks (findings that are not suppressed become errors). @default true */
  readonly checks?: boolean;
  /** Context values for the CDK app (the toolkit passes its own). @default {} */
  readonly context?: Record<string, unknown>;
  /**
   * Run aws-cdk-lib's built-in CloudFormation validation (a WASM rule engine, on by default in aws-cdk-lib) after
   * synthesis. Off by default: it takes about as long as the rest of the synth, cdk-nag stays the gate, and it
   * leaves the templates unchanged (it only reports).
   * @default false
   */
  readonly validation?: boolean;
}

/** A CDK app holding the stage's stack, with the checks attached. Nothing is written until `app.synth()`. */
export function buildCdkApp(app: AppDefinition, options: SynthesizeOptions = {}): { cdkApp: App; stack: FrameworkStack } {
  const cdkApp = new App({ outdir: options.outdir ?? `${app.rootDir}/cdk.out`, context: options.context, builtinCloudFormationValidation: options.validation ?? false });
  const stack = new FrameworkStack(cdkApp, undefined, { ...options, app });
  if (options.checks ?? true) {
    Validations.of(cdkApp).addPlugins(new (loadCdkNag().AwsSolutionsChecks)(cdkApp, { verbose: true }));
    applyNagSuppressions(stack);
  }
  return { cdkApp, stack };
}

/** Bundles, builds and synthesizes the stage: the cloud assembly `fw deploy` deploys. */
export function synthesizeApp(app: AppDefinition, options: SynthesizeOptions = {}): { assembly: CloudAssembly; stack: FrameworkStack } {
  const { cdkApp, stack } = buildCdkApp(app, options);
  return { assembly: cdkApp.synth(), stack };
}
