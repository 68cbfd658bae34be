import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { expect } from 'chai';
import { IntegrationsVaultKey } from '../src/index.js';

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
