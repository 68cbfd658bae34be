import { expect } from 'chai';
import { Template } from 'aws-cdk-lib/assertions';
import { defineApp } from '@framework/core';
import { buildCdkApp } from '../src/index.js';
import { SMALL_APP, routeSource, tempProject } from './helpers/temp-project.js';

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DependsOn?: string[] }>;

/** Federation and MFA declared in the security config: a browser client, a machine client, an OIDC and a SAML provider. */
const security = {
  scopes: { 'items:read': 'Read items' },
  appClients: {
    web: { scopes: ['items:read'], flows: ['authorization_code' as const, 'refresh_token' as const], callbackUrls: ['https://app.example.com/callback'] },
    jobs: { scopes: ['items:read'], flows: ['client_credentials' as const] },
  },
  identityProviders: {
    'google-oidc': { type: 'oidc' as const, issuer: 'https://accounts.google.com', clientId: '1234.apps.googleusercontent.com', clientSecret: { secretName: 'shop/google-oauth', jsonField: 'client_secret' } },
    okta: { type: 'saml' as const, metadataUrl: 'https://shop.okta.com/app/abc/sso/saml/metadata', attributeMapping: { email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'custom:tenant': 'tenant' } },
  },
  mfa: { mode: 'required' as const, factors: ['totp' as const, 'sms' as const] },
};

describe('auth federation, MFA and managed login from the security config', function () {
  this.timeout(120_000);
  let resources: Resources;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

  before(() => {
    // Given the app synthesized with the cdk-nag checks on (an unacknowledged finding fails the synth)
    const project = tempProject({ 'src/routes/items/get.ts': routeSource(['items:read']) });
    try {
      const app = defineApp({ ...SMALL_APP, security, rootDir: project.dir, infrastructure: { auth: {} } });
      const { cdkApp, stack } = buildCdkApp(app, { outdir: `${project.dir}/cdk.out` });
      cdkApp.synth();
      resources = Template.fromStack(stack).toJSON().Resources as Resources;
    } finally {
      project.remove();
    }
  });

  it('makes an OIDC provider whose client secret is a Secrets Manager reference, never the value', () => {
    const [, oidc] = ofType('AWS::Cognito::UserPoolIdentityProvider').find(([, r]) => r.Properties.ProviderType === 'OIDC')!;
    expect(oidc.Properties).to.deep.include({ ProviderName: 'google-oidc', AttributeMapping: { email: 'email' } });
    expect(oidc.Properties.ProviderDetails).to.deep.include({
      client_id: '1234.apps.googleusercontent.com',
      client_secret: '{{resolve:secretsmanager:shop/google-oauth:SecretString:client_secret::}}',
      authorize_scopes: 'openid email profile',
      oidc_issuer: 'https://accounts.google.com',
      attributes_request_method: 'GET',
    });
  });

  it('makes a SAML provider from its metadata URL, with the attribute mapping as declared', () => {
    const [, saml] = ofType('AWS::Cognito::UserPoolIdentityProvider').find(([, r]) => r.Properties.ProviderType === 'SAML')!;
    expect(saml.Properties).to.deep.include({ ProviderName: 'okta', AttributeMapping: { email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'custom:tenant': 'tenant' } });
    expect(saml.Properties.ProviderDetails).to.deep.include({ MetadataURL: 'https://shop.okta.com/app/abc/sso/saml/metadata' });
  });

  it('offers the providers beside the pool\'s own sign-in on the browser client only, created after them', () => {
    const clients = new Map(ofType('AWS::Cognito::UserPoolClient').map(([id, r]) => [r.Properties.ClientName as string, { id, ...r }]));
    const web = clients.get('web')!;
    expect(web.Properties.SupportedIdentityProviders).to.deep.equal(['COGNITO', 'google-oidc', 'okta']);
    const providerIds = ofType('AWS::Cognito::UserPoolIdentityProvider').map(([id]) => id);
    expect(web.DependsOn).to.include.members(providerIds);
    const machine = (clients.get('jobs')!.Properties.SupportedIdentityProviders ?? []) as string[];
    expect(machine.filter((p) => p !== 'COGNITO')).to.deep.equal([]);
  });

  it('requires MFA with the declared factors (TOTP and SMS, with the role Cognito sends SMS through)', () => {
    const [, pool] = ofType('AWS::Cognito::UserPool')[0]!;
    expect(pool.Properties.MfaConfiguration).to.equal('ON');
    expect(pool.Properties.EnabledMfas).to.have.members(['SMS_MFA', 'SOFTWARE_TOKEN_MFA']);
    expect(pool.Properties.SmsConfiguration).to.have.property('SnsCallerArn');
  });

  it('serves managed login on the domain, with Cognito\'s default style for each browser client', () => {
    const [, domain] = ofType('AWS::Cognito::UserPoolDomain')[0]!;
    expect(domain.Properties.ManagedLoginVersion).to.equal(2);
    const branding = ofType('AWS::Cognito::ManagedLoginBranding');
    expect(branding).to.have.length(1);
    const webId = ofType('AWS::Cognito::UserPoolClient').find(([, r]) => r.Properties.ClientName === 'web')![0];
    expect(branding[0]![1].Properties).to.deep.include({ UseCognitoProvidedValues: true, ClientId: { Ref: webId } });
  });
});
