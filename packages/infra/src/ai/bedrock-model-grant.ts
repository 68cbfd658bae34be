import { Stack, Token } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import { ALL, type ReferencedIds } from '../bundling/bundle-references.js';
import { acknowledgeNagFindings } from '../checks/nag-suppressions.js';

/** What calling a model needs: a whole answer (`generate`), and a streamed one (`stream`). */
export const BEDROCK_INVOKE_ACTIONS: readonly string[] = ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'];

/** A cross-region inference profile id starts with its geography (`us.amazon.nova-lite-v1:0`). */
const INFERENCE_PROFILE = /^(?:us|eu|apac|us-gov|global|jp|au|ca)\.(.+)$/;

/**
 * Lets a function's role call the Bedrock models its code configures (`@framework-pro/ai`'s
 * `{ provider: 'bedrock', model }`) and no other: the foundation model in the stack's region; for an inference profile,
 * the profile and its model in the regions the profile routes to. `all` (a model id computed at run time): every
 * foundation model and inference profile, as `fw dev` would allow.
 */
export function grantBedrockModels(role: iam.IRole, models: ReferencedIds): void {
  const stack = Stack.of(role);
  const foundationModel = (region: string, id: string) => stack.formatArn({ service: 'bedrock', region, account: '', resource: 'foundation-model', resourceName: id });
  const profile = (id: string) => stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: id });
  const resources: string[] = [];
  const findings: string[] = [];
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  const ids = models === ALL ? ['*'] : models;
  for (const id of ids) {
    const routed = models === ALL ? '*' : INFERENCE_PROFILE.exec(id)?.[1];
    if (routed === undefined) {
      resources.push(foundationModel(stack.region, id));
      continue;
    }
    resources.push(profile(id), foundationModel('*', routed));
    findings.push(`Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${routed}`);
    if (id === '*') findings.push(`Resource::arn:<AWS::Partition>:bedrock:${region}::foundation-model/*`, `Resource::arn:<AWS::Partition>:bedrock:${region}:${account}:inference-profile/*`);
  }
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...BEDROCK_INVOKE_ACTIONS], resources: [...new Set(resources)] }));
  if (findings.length) acknowledgeNagFindings(role, 'bedrockModels', [...new Set(findings)]);
}
