/**
 * The context `@aws-cdk/toolkit-lib` gives an app it synthesizes with its default settings (no `cdk.json`, no
 * context file: `fromAssemblyBuilder` with its in-memory context store): `aws:cdk:path` metadata on every resource,
 * asset metadata, version reporting (the `AWS::CDK::Metadata` resource) and bundling for every stack. `fw synth`
 * synthesizes in process with the same context so its assembly equals what `fw deploy` deploys (the toolkit's own
 * `@aws-cdk/core:failSynthOnValidationErrors: false` is left out on purpose: without the toolkit to read the
 * validation report, cdk-nag findings must fail the synth itself).
 */
export const TOOLKIT_SYNTH_CONTEXT: Readonly<Record<string, unknown>> = {
  'aws:cdk:enable-path-metadata': true,
  'aws:cdk:enable-asset-metadata': true,
  'aws:cdk:version-reporting': true,
  'aws:cdk:bundling-stacks': ['**'],
};
