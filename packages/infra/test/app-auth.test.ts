import { expect } from 'chai';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { AuthDefinition } from '@framework/core';
import { AppAuth } from '../src/index.js';

const definition = (domain: Pick<AuthDefinition, 'domainPrefix' | 'domainPrefixUnique'>): AuthDefinition => ({
  selfSignUp: false,
  mfa: 'optional',
  passwordMinLength: 12,
  accessTokenValidityMinutes: 60,
  userPoolName: 'acme-dev-users',
  scopes: { 'tasks:read': 'Read tasks' },
  appClients: { worker: { scopes: ['tasks:read'], flows: ['client_credentials'] } },
  roles: {},
  identityProviders: {},
  mfaFactors: ['totp'],
  preTokenGenerationFunctionName: 'acme-dev-auth-pre-token',
  ...domain,
});

function domainOf(domain: Pick<AuthDefinition, 'domainPrefix' | 'domainPrefixUnique'>): unknown {
  const stack = new Stack(new App(), 'AuthOnly');
  new AppAuth(stack, 'Auth', { definition: definition(domain), resources: { removalPolicy: 'destroy' }, resourceServerIdentifier: 'acme' });
  const domains = Object.values(Template.fromStack(stack).findResources('AWS::Cognito::UserPoolDomain'));
  expect(domains).to.have.length(1);
  return (domains[0] as { Properties: { Domain: unknown } }).Properties.Domain;
}

describe('AppAuth hosted domain prefix', () => {
  it('uses a prefix the user set exactly as given', () => {
    expect(domainOf({ domainPrefix: 'acme-login', domainPrefixUnique: false })).to.equal('acme-login');
  });

  it('appends the head of the stack id UUID to the default, so two accounts never ask for the same prefix', () => {
    expect(JSON.stringify(domainOf({ domainPrefix: 'acme-dev', domainPrefixUnique: true }))).to.equal(
      JSON.stringify({ 'Fn::Join': ['-', ['acme-dev', { 'Fn::Select': [0, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] }]] }),
    );
  });
});
