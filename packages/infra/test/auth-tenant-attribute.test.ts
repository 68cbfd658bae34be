import { expect } from 'chai';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { TENANT_CLAIM, type AuthDefinition } from '@framework/core';
import { AppAuth, InfraError, USER_WRITABLE_ATTRIBUTES } from '../src/index.js';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** An auth intent with a client of each kind: a browser one, an SDK (SRP) one and a machine one. */
const definition = (overrides: Partial<AuthDefinition> = {}): AuthDefinition => ({
  selfSignUp: true,
  mfa: 'optional',
  passwordMinLength: 12,
  accessTokenValidityMinutes: 60,
  userPoolName: 'acme-dev-users',
  domainPrefix: 'acme-login',
  domainPrefixUnique: false,
  scopes: { 'tasks:read': 'Read tasks' },
  appClients: {
    web: { scopes: ['tasks:read'], flows: ['authorization_code'], callbackUrls: ['https://app.example.com/callback'] },
    mobile: { scopes: ['tasks:read'], flows: ['user_srp'] },
    worker: { scopes: ['tasks:read'], flows: ['client_credentials'] },
  },
  roles: {},
  identityProviders: {},
  mfaFactors: ['totp'],
  preTokenGenerationFunctionName: 'acme-dev-auth-pre-token',
  ...overrides,
});

function synth(def: AuthDefinition): Resources {
  const stack = new Stack(new App(), 'AuthOnly');
  new AppAuth(stack, 'Auth', { definition: def, resources: { removalPolicy: 'destroy' }, resourceServerIdentifier: 'acme' });
  return Template.fromStack(stack).toJSON().Resources as Resources;
}

const ofType = (resources: Resources, type: string) => Object.values(resources).filter((r) => r.Type === type);

/** The client's `WriteAttributes`, failing when there is none (Cognito's default lets a client write every attribute). */
function writeAttributesOf(client: { Properties: Record<string, any> }): string[] {
  const name = client.Properties.ClientName as string;
  expect(client.Properties, `${name}: WriteAttributes`).to.have.property('WriteAttributes');
  const attributes = client.Properties.WriteAttributes as unknown;
  // An empty list means the default to Cognito as well
  expect(attributes, `${name}: WriteAttributes`).to.be.an('array').that.is.not.empty;
  return attributes as string[];
}

describe('AppAuth: the tenant attribute, which only admin calls write', () => {
  let resources: Resources;
  before(() => {
    resources = synth(definition());
  });

  it('declares the custom attribute tenant_id on the pool (String, mutable, 1 to 64 characters)', () => {
    const pools = ofType(resources, 'AWS::Cognito::UserPool');
    expect(pools).to.have.length(1);
    const schema = pools[0]!.Properties.Schema as Record<string, unknown>[];
    expect(schema).to.deep.include({ Name: 'tenant_id', AttributeDataType: 'String', Mutable: true, StringAttributeConstraints: { MinLength: '1', MaxLength: '64' } });
    expect(TENANT_CLAIM).to.equal('custom:tenant_id');
  });

  it('gives every app client an explicit list of writable attributes without custom:tenant_id', () => {
    const clients = ofType(resources, 'AWS::Cognito::UserPoolClient');
    expect(clients.map((c) => c.Properties.ClientName).sort()).to.deep.equal(['mobile', 'web', 'worker']);
    for (const client of clients) {
      const attributes = writeAttributesOf(client);
      expect(attributes, client.Properties.ClientName).to.not.include(TENANT_CLAIM);
      expect(attributes.filter((a) => a.startsWith('custom:')), client.Properties.ClientName).to.deep.equal([]);
      // Users keep editing their profile; they never mark their own address verified
      expect(attributes).to.include.members(['email', 'name', 'given_name', 'family_name', 'phone_number', 'locale', 'picture', 'preferred_username']);
      expect(attributes).to.not.include.members(['email_verified']);
      expect(attributes).to.not.include('phone_number_verified');
    }
  });

  it('leaves the read attributes at Cognito\'s default (the ID token carries the tenant)', () => {
    for (const client of ofType(resources, 'AWS::Cognito::UserPoolClient')) expect(client.Properties).to.not.have.property('ReadAttributes');
  });

  it('lists no verification flag, no updated_at and no custom attribute in USER_WRITABLE_ATTRIBUTES', () => {
    expect(USER_WRITABLE_ATTRIBUTES).to.not.have.any.keys('emailVerified', 'phoneNumberVerified', 'lastUpdateTime');
    expect(Object.values(USER_WRITABLE_ATTRIBUTES).every((v) => v === true)).to.equal(true);
  });

  it('lets a browser client write the standard attributes its providers map (federated sign-in updates them), still no tenant', () => {
    const federated = synth(
      definition({
        identityProviders: {
          corp: { type: 'saml', metadataUrl: 'https://corp.example.com/saml/metadata', attributeMapping: { email: 'mail', updated_at: 'modified', 'custom:department': 'dept' } },
        },
      }),
    );
    const clients = new Map(ofType(federated, 'AWS::Cognito::UserPoolClient').map((c) => [c.Properties.ClientName as string, c]));
    const web = writeAttributesOf(clients.get('web')!);
    expect(web).to.include.members(['email', 'updated_at']);
    expect(web.filter((a) => a.startsWith('custom:'))).to.deep.equal([]);
    // Clients without a sign-in page offer no provider: nothing mapped to write
    expect(writeAttributesOf(clients.get('mobile')!)).to.not.include('updated_at');
  });

  it('refuses an identity provider that maps a claim to custom:tenant_id (FW_ERR_INFRA_TENANT_MAPPING)', () => {
    const mapsTenant = definition({ identityProviders: { corp: { type: 'oidc', issuer: 'https://corp.example.com', clientId: 'abc', clientSecret: { secretName: 'corp/oidc' }, attributeMapping: { email: 'email', 'custom:tenant_id': 'org' } } } });
    let error: unknown;
    try {
      synth(mapsTenant);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(InfraError);
    expect((error as InfraError).code).to.equal('FW_ERR_INFRA_TENANT_MAPPING');
    expect((error as Error).message).to.contain('corp').and.to.contain('AdminUpdateUserAttributes');
  });
});
