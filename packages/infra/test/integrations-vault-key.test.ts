import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { expect } from 'chai';
import { defineApp } from '@framework/core';
import { IntegrationsVaultKey, referencesOf } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';
import { functionNamed, permissionsOf, resourcesOf, synthesize, type Synthesized } from './helpers/synth-once.js';

describe('IntegrationsVaultKey', () => {
  it('is a rotating symmetric key; grantUse gives a function GenerateDataKey and Decrypt on it and names it in FW_INTEGRATIONS_KMS_KEY_ID', () => {
    const stack = new Stack(new App(), 'Vault');
    const vault = new IntegrationsVaultKey(stack, 'Vault', { resources: { removalPolicy: 'retain' }, alias: 'alias/acme-prod-integrations-vault' });
    const fn = new lambda.Function(stack, 'Connect', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.main', code: lambda.Code.fromInline('exports.main = async () => 1') });
    vault.grantUse(fn);
    const template = Template.fromStack(stack);
    template.hasResource('AWS::KMS::Key', { Properties: { EnableKeyRotation: true }, DeletionPolicy: 'Retain' });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/acme-prod-integrations-vault' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { FW_INTEGRATIONS_KMS_KEY_ID: { 'Fn::GetAtt': [Match.stringLikeRegexp('^VaultKey'), 'Arn'] } } },
    });
    const policies = template.findResources('AWS::IAM::Policy');
    const statements = Object.values(policies).flatMap((p) => (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }).Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    expect(actions.sort()).to.deep.equal(['kms:Decrypt', 'kms:GenerateDataKey']);
  });
});

describe('FrameworkStack: the integrations vault key, created from the code and usable by the functions that keep secrets in the vault only', () => {
  const project = tempProject({
    'src/lib/hooks.ts': `import { createWebhooks } from '@framework/integrations';\nexport const webhooks = createWebhooks({ queue: 'webhooks' });\n`,
    'src/functions/deliver.ts': `import { webhooks } from '../lib/hooks.js';\nexport const main = async (event: never) => webhooks.processDeliveries(event);\n`,
    'src/routes/connect/get.ts': `import { createOAuthConnections } from '@framework/integrations';\nconst connections = createOAuthConnections({ providers: {} });\nexport const main = Object.assign(async () => connections.refreshDue(), { handlerInfo: { kind: 'http', scopes: [], middleware: [] } });\n`,
    'src/routes/items/get.ts': routeSource(),
    // A stand-in for the package (the temporary project has no node_modules): only its name matters to the analysis.
    'node_modules/@framework/integrations/package.json': JSON.stringify({ name: '@framework/integrations', type: 'module', main: 'index.js' }),
    'node_modules/@framework/integrations/index.js': 'export const createWebhooks = () => ({ processDeliveries: async () => {} });\nexport const createOAuthConnections = () => ({ refreshDue: async () => {} });\n',
  });
  let dev: Synthesized;
  const withVault = ['shop-dev-fn-deliver', 'shop-dev-route-get-connect'];

  before(function () {
    this.timeout(240_000);
    dev = synthesize(defineApp({ ...SMALL_APP, rootDir: project.dir }));
  });
  after(() => {
    dev?.cleanup();
    project.remove();
  });

  it('is one rotating KMS key with the stage alias, retained unless the stage destroys data', () => {
    const keys = resourcesOf(dev, 'AWS::KMS::Key');
    expect(keys).to.have.length(1);
    expect(keys[0]!.properties.EnableKeyRotation).to.equal(true);
    dev.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/shop-dev-integrations-vault' });
  });

  it('names the key in FW_INTEGRATIONS_KMS_KEY_ID of the functions that use the vault, and of no other', () => {
    const keyId = resourcesOf(dev, 'AWS::KMS::Key')[0]!.logicalId;
    expect(functionNamed(dev, 'shop-dev-fn-deliver').properties).to.have.nested.property('Environment.Variables.FW_INTEGRATIONS_KMS_KEY_ID').that.deep.equals({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(functionNamed(dev, 'shop-dev-route-get-connect').properties).to.have.nested.property('Environment.Variables.FW_INTEGRATIONS_KMS_KEY_ID');
    expect(functionNamed(dev, 'shop-dev-route-get-items').properties).to.not.have.nested.property('Environment.Variables.FW_INTEGRATIONS_KMS_KEY_ID');
  });

  it('grants GenerateDataKey and Decrypt on that key only to those functions; the key policy names none of them', () => {
    for (const name of withVault) {
      const grant = permissionsOf(dev, name).statements.find((s) => [s.Action].flat().includes('kms:Decrypt'));
      expect(grant, name).to.not.equal(undefined);
      expect([grant!.Action].flat().sort()).to.deep.equal(['kms:Decrypt', 'kms:GenerateDataKey']);
      expect(JSON.stringify(grant!.Resource)).to.match(/IntegrationsVault/);
      expect(JSON.stringify(grant!.Resource)).to.not.contain('"*"');
    }
    expect(permissionsOf(dev, 'shop-dev-route-get-items').actions.filter((a) => a.startsWith('kms:'))).to.deep.equal([]);
    const policy = JSON.stringify(resourcesOf(dev, 'AWS::KMS::Key')[0]!.properties.KeyPolicy);
    expect(policy).to.not.match(/ServiceRole|SharedRole/);
  });

  it('is not created when no function uses the vault', function () {
    this.timeout(240_000);
    const plain = tempProject({ 'src/routes/items/get.ts': routeSource() });
    const synth = synthesize(defineApp({ ...SMALL_APP, rootDir: plain.dir }));
    try {
      expect(resourcesOf(synth, 'AWS::KMS::Key')).to.deep.equal([]);
    } finally {
      synth.cleanup();
      plain.remove();
    }
  });

  it('reads the use from the code: createOAuthConnections( or createWebhooks( called, with @framework/integrations imported', () => {
    const integrations = new Set(['@framework/integrations']);
    expect(referencesOf('const c = createOAuthConnections({ providers: {} });', integrations).vault).to.equal(true);
    expect(referencesOf('const w = createWebhooks({ queue: "q" });', integrations).vault).to.equal(true);
    expect(referencesOf('const w = createWebhooks({ queue: "q" });').vault).to.equal(undefined);
    expect(referencesOf('createApiKeys({})', integrations).vault).to.equal(undefined);
  });
});
