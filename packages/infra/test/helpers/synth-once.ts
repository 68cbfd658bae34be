import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { AppDefinition } from '@framework/core';
import { synthesizeApp, type FrameworkStack, type SynthesizeOptions } from '../../src/index.js';

/** One synthesized stage: the stack, the parent template and each route shard's template. */
export interface Synthesized {
  readonly stack: FrameworkStack;
  readonly template: Template;
  /** By shard number. */
  readonly shards: ReadonlyMap<number, Template>;
  /** Every template (parent and shards) as JSON, for cross-template searches. */
  readonly all: readonly Template[];
  readonly outdir: string;
  cleanup(): void;
}

/**
 * Synthesizes once (CDK synth is slow on small machines; tests share the result) into a temporary cloud assembly and
 * reads the templates from it, as `fw deploy` would upload them.
 */
export function synthesize(app: AppDefinition, options: SynthesizeOptions = {}): Synthesized {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-infra-test-'));
  const { assembly, stack } = synthesizeApp(app, { outdir, ...options });
  const read = (file: string) => Template.fromJSON(JSON.parse(fs.readFileSync(path.join(assembly.directory, file), 'utf8')) as Record<string, unknown>);
  const template = read(assembly.getStackByName(stack.stackName).templateFile);
  const shards = new Map<number, Template>();
  for (const [n, shard] of stack.routeShards) shards.set(n, read(shard.templateFile));
  return { stack, template, shards, all: [template, ...shards.values()], outdir, cleanup: () => fs.rmSync(outdir, { recursive: true, force: true }) };
}

/** Every resource of a type across the parent and shard templates, with the template it is in. */
export function resourcesOf(s: Synthesized, type: string): Array<{ logicalId: string; properties: Record<string, unknown>; template: Template }> {
  const out: Array<{ logicalId: string; properties: Record<string, unknown>; template: Template }> = [];
  for (const template of s.all) {
    for (const [logicalId, resource] of Object.entries(template.findResources(type))) {
      out.push({ logicalId, properties: ((resource as { Properties?: Record<string, unknown> }).Properties ?? {}), template });
    }
  }
  return out;
}

/** The Lambda function resource whose FunctionName is `name`. */
export function functionNamed(s: Synthesized, name: string): { logicalId: string; properties: Record<string, unknown>; template: Template } {
  const found = resourcesOf(s, 'AWS::Lambda::Function').find((f) => f.properties.FunctionName === name);
  if (!found) throw new Error(`no function named ${name}`);
  return found;
}

/** One statement of an IAM policy, as synthesized. */
export interface PolicyStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Effect: string;
}

/**
 * Every statement of the inline policies attached to a function's execution role (in the template holding the
 * role), and the role's managed policies: what the function may do beyond its code.
 */
export function permissionsOf(s: Synthesized, functionName: string): { statements: PolicyStatement[]; actions: string[]; roleLogicalId: string } {
  const fn = functionNamed(s, functionName);
  const roleRef = fn.properties.Role as { 'Fn::GetAtt'?: [string, string]; Ref?: string };
  let roleLogicalId = roleRef['Fn::GetAtt']?.[0];
  let template = fn.template;
  if (!roleLogicalId) {
    // A role of the parent stack reaches a shard's function as a parameter: follow it to the parent's role.
    const parameter = roleRef.Ref!;
    for (const [n, shardTemplate] of s.shards) {
      if (shardTemplate !== fn.template) continue;
      const shard = s.stack.routeShards.get(n)!;
      const value = (s.template.toJSON().Resources[s.stack.getLogicalId(shard.nestedStackResource!)] as { Properties: { Parameters: Record<string, { 'Fn::GetAtt': [string, string] }> } }).Properties.Parameters[parameter]!;
      roleLogicalId = value['Fn::GetAtt'][0];
      template = s.template;
    }
  }
  const statements: PolicyStatement[] = [];
  for (const policy of Object.values(template.findResources('AWS::IAM::Policy')) as Array<{ Properties: { Roles: Array<{ Ref: string }>; PolicyDocument: { Statement: PolicyStatement[] } } }>) {
    if (policy.Properties.Roles.some((r) => r.Ref === roleLogicalId)) statements.push(...policy.Properties.PolicyDocument.Statement);
  }
  return { statements, actions: statements.flatMap((st) => [st.Action].flat()), roleLogicalId: roleLogicalId! };
}
