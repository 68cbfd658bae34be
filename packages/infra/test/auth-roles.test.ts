import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { Template } from 'aws-cdk-lib/assertions';
import { defineApp } from '@framework/core';
import { buildCdkApp } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

/**
 * The small app with roles: a member reads, an admin also deletes; every signed-in user, in a role or not, may read;
 * the web client may request both scopes.
 */
const security = {
  scopes: { 'items:read': 'Read items', 'items:delete': 'Delete items' },
  appClients: { web: { scopes: ['items:read', 'items:delete'], flows: ['user_srp' as const] }, reports: { scopes: ['items:read'], flows: ['client_credentials' as const] } },
  roles: { admin: { scopes: ['items:read', 'items:delete'], description: 'Runs the shop' }, member: { scopes: ['items:read'] } },
  everyUser: { scopes: ['items:read'] },
};

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/**
 * The small app with the auth intent (and `extra`, e.g. the roles' security config), synthesized with the cdk-nag
 * checks on: its template and the trigger's bundle folder. Call in `before`; remove the project in `after`.
 */
function synthesized(extra: { security?: typeof security } = {}) {
  const project = tempProject({ 'src/routes/items/get.ts': routeSource(['items:read']) });
  const app = defineApp({ ...SMALL_APP, ...extra, rootDir: project.dir, infrastructure: { auth: {} } });
  const { cdkApp, stack } = buildCdkApp(app, { outdir: `${project.dir}/cdk.out` });
  cdkApp.synth();
  return { project, template: Template.fromStack(stack), bundleDir: stack.bundle.authTrigger?.directory };
}

/** Checks that the pool's V2 pre token generation trigger is the trigger function, on the Essentials plan; its resource. */
function expectTriggerWired(template: Template): { Type: string; Properties: Record<string, unknown> } {
  const functions = template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: 'shop-dev-auth-pre-token' } }) as Resources;
  const [logicalId] = Object.keys(functions);
  expect(logicalId, 'trigger function').to.be.a('string');
  const pool = Object.values(template.findResources('AWS::Cognito::UserPool') as Resources)[0]!.Properties;
  expect(pool.UserPoolTier).to.equal('ESSENTIALS');
  expect(pool.LambdaConfig).to.deep.equal({ PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [logicalId, 'Arn'] }, LambdaVersion: 'V2_0' } });
  template.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [logicalId, 'Arn'] } });
  return functions[logicalId!]!;
}

describe('auth roles in the stack: Cognito groups and the pre token generation trigger', function () {
  this.timeout(120_000);
  let project: ReturnType<typeof tempProject>;
  let template: Template;
  let bundleDir: string | undefined;

  before(() => {
    // Given an app with the auth intent and two roles
    ({ project, template, bundleDir } = synthesized({ security }));
  });
  after(() => project.remove());

  it('makes one Cognito group per role, in the pool', () => {
    const groups = Object.values(template.findResources('AWS::Cognito::UserPoolGroup') as Resources).map((g) => g.Properties);
    expect(groups.map((g) => [g.GroupName, g.Description]).sort()).to.deep.equal([['admin', 'Runs the shop'], ['member', undefined]]);
    for (const group of groups) expect(group.UserPoolId).to.have.property('Ref').that.matches(/UserPool/);
  });

  it('wires its own function as the pool\'s V2 pre token generation trigger, on the Essentials plan', () => {
    expect(expectTriggerWired(template).Properties.Description).to.match(/tenant and the scopes of their roles/);
  });

  it('declares the tenant attribute on this pool too, and lets none of its clients write it', () => {
    const pool = Object.values(template.findResources('AWS::Cognito::UserPool') as Resources)[0]!.Properties;
    expect(pool.Schema).to.deep.include({ Name: 'tenant_id', AttributeDataType: 'String', Mutable: true, StringAttributeConstraints: { MinLength: '1', MaxLength: '64' } });
    const clients = Object.values(template.findResources('AWS::Cognito::UserPoolClient') as Resources);
    expect(clients).to.have.length(2);
    for (const client of clients) {
      expect(client.Properties.WriteAttributes, String(client.Properties.ClientName)).to.be.an('array').that.is.not.empty.and.does.not.include('custom:tenant_id');
    }
  });

  it('gives the trigger the roles\', the clients\' and every user\'s scopes by name, the resource server, and nothing of the pool', () => {
    const trigger = Object.values(template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: 'shop-dev-auth-pre-token' } }) as Resources)[0]!.Properties;
    const variables = (trigger.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.parse(variables.FW_AUTH_SCOPE_RULES as string)).to.deep.equal({
      roles: { admin: ['items:read', 'items:delete'], member: ['items:read'] },
      clients: { web: ['items:read', 'items:delete'], reports: ['items:read'] },
      everyUser: ['items:read'],
    });
    expect(variables.FW_AUTH_RESOURCE_SERVER).to.equal('shop');
    expect(Object.keys(variables).filter((k) => k.startsWith('FW_')).sort()).to.deep.equal(['FW_AUTH_RESOURCE_SERVER', 'FW_AUTH_SCOPE_RULES']);
    expect(trigger.Timeout).to.equal(5);
    const statements = Object.values(template.findResources('AWS::IAM::Policy') as Resources).flatMap((p) => (p.Properties.PolicyDocument as { Statement: Array<{ Action: unknown; Resource: unknown }> }).Statement);
    const describe = statements.filter((st) => st.Action === 'cognito-idp:DescribeUserPoolClient');
    expect(describe).to.have.length(1);
    expect(JSON.stringify(describe[0]!.Resource)).to.match(/:cognito-idp:.*:userpool\/\*"/);
  });

  it('bundles @framework/auth/pre-token-generation into the trigger\'s folder', () => {
    const code = fs.readFileSync(path.join(bundleDir!, 'index.mjs'), 'utf8');
    expect(code).to.contain('FW_AUTH_SCOPE_RULES');
    expect(code).to.contain('scopesToSuppress');
  });
});

describe('auth without roles', function () {
  this.timeout(120_000);
  let project: ReturnType<typeof tempProject>;
  let template: Template;
  let bundleDir: string | undefined;

  before(() => {
    // Given an app with the auth intent and no roles
    ({ project, template, bundleDir } = synthesized());
  });
  after(() => project.remove());

  it('has no groups', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolGroup', 0);
  });

  it('still wires the trigger (V2, Essentials plan): it puts the user\'s tenant into access tokens, as fw dev\'s issuer does', () => {
    expect(expectTriggerWired(template).Properties.Description).to.match(/tenant/).and.not.match(/roles/);
    expect(fs.readFileSync(path.join(bundleDir!, 'index.mjs'), 'utf8')).to.contain('claimsToAddOrOverride');
  });

  it('gives the trigger rules without roles, and no Cognito permission (it never looks up the client)', () => {
    const trigger = Object.values(template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: 'shop-dev-auth-pre-token' } }) as Resources)[0]!.Properties;
    const variables = (trigger.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.parse(variables.FW_AUTH_SCOPE_RULES as string).roles).to.deep.equal({});
    const statements = Object.values(template.findResources('AWS::IAM::Policy') as Resources).flatMap((p) => (p.Properties.PolicyDocument as { Statement: Array<{ Action: unknown }> }).Statement);
    expect(statements.filter((st) => JSON.stringify(st.Action).includes('cognito-idp:DescribeUserPoolClient'))).to.deep.equal([]);
  });
});
