import { expect } from 'chai';
import { ConfigError, defineApp, getResolvedConfig, type BaseConfig, type SecurityConfig } from '../../src/index.js';
import { TempProject, thrownBy, validOptions } from '../helpers/temp-project.js';

const base: BaseConfig = { name: 'acme', region: 'eu-west-1' };
const security: SecurityConfig = { scopes: { 'tasks:read': 'Read tasks' }, appClients: { web: { scopes: ['tasks:read'], flows: ['authorization_code'] } } };

const GOOGLE = { type: 'oidc', issuer: 'https://accounts.google.com', clientId: '1234.apps.googleusercontent.com', clientSecret: { secretName: 'acme/google-oauth', jsonField: 'client_secret' } } as const;
const OKTA_SAML = { type: 'saml', metadataUrl: 'https://acme.okta.com/app/abc/sso/saml/metadata', attributeMapping: { email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress' } } as const;

/** The problems, as `code path`, of the ConfigError resolving `layer` throws. */
function problemsOf(layer: unknown): string[] {
  const error = thrownBy(() => getResolvedConfig(base, layer as SecurityConfig, { preset: 'free' }));
  expect(error).to.be.instanceOf(ConfigError);
  return (error as ConfigError).problems.map((p) => `${p.code} ${p.path}: ${p.message}`);
}

describe('security config: identity providers (federation) and MFA', () => {
  it('resolves OIDC and SAML providers and the MFA setting, and lists them as security fields', () => {
    const config = getResolvedConfig(base, { ...security, identityProviders: { 'google-oidc': GOOGLE, okta: OKTA_SAML }, mfa: { mode: 'required', factors: ['totp', 'sms'] } }, { preset: 'free' });
    expect(config.security.identityProviders).to.deep.equal({ 'google-oidc': GOOGLE, okta: OKTA_SAML });
    expect(config.security.mfa).to.deep.equal({ mode: 'required', factors: ['totp', 'sms'] });
    expect(config.fields.find((f) => f.path === 'security.identityProviders')).to.deep.include({ value: ['google-oidc', 'okta'], source: 'security' });
    expect(getResolvedConfig(base, security, { preset: 'free' }).security.identityProviders).to.deep.equal({});
  });

  it('names each problem of a provider: the type, a missing field, a plain-text secret, an http URL, an unknown attribute, a name Cognito keeps', () => {
    const problems = problemsOf({
      ...security,
      identityProviders: {
        ldap: { type: 'ldap' },
        partial: { type: 'oidc', issuer: 'https://login.example.com' },
        leaky: { ...GOOGLE, clientSecret: 'the-secret-itself' },
        plain: { type: 'saml', metadataUrl: 'http://idp.example.com/metadata' },
        mapped: { ...GOOGLE, attributeMapping: { mail: 'email' } },
        Google: GOOGLE,
      },
    });
    expect(problems.map((p) => p.split(':')[0])).to.deep.equal([
      'FW_ERR_CONFIG_INVALID_VALUE security.identityProviders.ldap.type',
      'FW_ERR_CONFIG_MISSING_FIELD security.identityProviders.partial.clientId',
      'FW_ERR_CONFIG_MISSING_FIELD security.identityProviders.partial.clientSecret',
      'FW_ERR_CONFIG_INVALID_VALUE security.identityProviders.leaky.clientSecret',
      'FW_ERR_CONFIG_INVALID_VALUE security.identityProviders.plain.metadataUrl',
      'FW_ERR_CONFIG_INVALID_VALUE security.identityProviders.mapped.attributeMapping.mail',
      'FW_ERR_CONFIG_INVALID_VALUE security.identityProviders.Google',
    ]);
    expect(problems[0]).to.contain('expected one of "oidc", "saml", got "ldap"');
    expect(problems[3]).to.contain('a Secrets Manager secret: never the secret itself');
    expect(problems[6]).to.contain('not Cognito, Google, Facebook, LoginWithAmazon or SignInWithApple');
  });

  it('refuses identity providers when no app client signs users in through a browser', () => {
    const problems = problemsOf({ ...security, appClients: { jobs: { scopes: ['tasks:read'], flows: ['client_credentials'] } }, identityProviders: { okta: OKTA_SAML } });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^FW_ERR_CONFIG_INVALID_VALUE security\.identityProviders: declares "okta" but no app client signs users in through a browser; add "authorization_code"/);
  });

  it('refuses an MFA mode or factor Cognito does not offer here, and an empty factor list', () => {
    expect(problemsOf({ ...security, mfa: { mode: 'always', factors: ['email'] } }).map((p) => p.split(':')[0])).to.deep.equal([
      'FW_ERR_CONFIG_INVALID_VALUE security.mfa.mode',
      'FW_ERR_CONFIG_INVALID_VALUE security.mfa.factors[0]',
    ]);
    expect(problemsOf({ ...security, mfa: { mode: 'optional', factors: [] } })[0]).to.match(/^FW_ERR_CONFIG_INVALID_VALUE security\.mfa\.factors: expected at least 1 items/);
  });

  describe('the auth intent\'s definition', () => {
    let project: TempProject;
    beforeEach(() => {
      project = new TempProject(['src/routes/tasks/get.ts']);
    });
    afterEach(() => project.remove());

    it('takes MFA from security.mfa (factors default to TOTP), else from the intent, and the providers from security', () => {
      const fromSecurity = defineApp(validOptions(project.rootDir, { security: { ...security, identityProviders: { okta: OKTA_SAML }, mfa: { mode: 'required' } }, infrastructure: { auth: {} } }));
      expect(fromSecurity.auth).to.deep.include({ mfa: 'required', mfaFactors: ['totp'], identityProviders: { okta: OKTA_SAML } });
      const fromIntent = defineApp(validOptions(project.rootDir, { infrastructure: { auth: { mfa: 'off' } } }));
      expect(fromIntent.auth).to.deep.include({ mfa: 'off', mfaFactors: ['totp'], identityProviders: {} });
    });

    it('refuses an intent mfa that contradicts security.mfa, naming both', () => {
      const error = thrownBy(() => defineApp(validOptions(project.rootDir, { security: { ...security, mfa: { mode: 'required' } }, infrastructure: { auth: { mfa: 'off' } } })));
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).problems[0]).to.deep.include({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: 'infrastructure.auth.mfa' });
      expect((error as ConfigError).problems[0]!.message).to.contain('security.mfa.mode says "required"');
    });
  });
});
