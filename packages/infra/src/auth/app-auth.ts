import { Aws, Duration, Fn, SecretValue, Stack } from 'aws-cdk-lib/core';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import { TENANT_ATTRIBUTE, TENANT_CLAIM, type AuthDefinition, type EnvironmentSettings, type IdentityProviderConfig, type ResourceSettings } from '@framework/core';
import { Construct } from 'constructs';
import type { AuthTriggerBundle } from '../bundling/bundle-app.js';
import { InfraError } from '../errors.js';
import { acknowledgeNag, acknowledgeNagFindings } from '../checks/nag-suppressions.js';
import { PreTokenGenerationTrigger } from './pre-token-generation-trigger.js';
import { PreloadedJwks } from './preloaded-jwks.js';
import { dataRemovalPolicy } from '../stack/removal-policy.js';

/** Props of `AppAuth`. */
export interface AppAuthProps {
  readonly definition: AuthDefinition;
  readonly resources: ResourceSettings;
  /**
   * Identifier of the resource server holding the security config's scopes. Cognito puts custom scopes into access
   * tokens as `<identifier>/<scope>`, so route `authorizationScopes` carry the same prefix.
   * @default - the project name
   */
  readonly resourceServerIdentifier: string;
  /**
   * The pre token generation trigger's bundle and the stage's settings (`bundleApp` always makes the bundle when the
   * app has auth). Required when the security config declares roles; without roles the trigger only puts the user's
   * tenant (`custom:tenant_id`) into access tokens, so a pool built without it issues access tokens without the tenant.
   * @default - no trigger
   */
  readonly preTokenGeneration?: { readonly bundle: AuthTriggerBundle; readonly settings: EnvironmentSettings };
}

const BROWSER_FLOWS = ['authorization_code', 'implicit'] as const;

/**
 * Whether the pool gets a domain: it serves the OAuth endpoints (sign-in pages, the token endpoint), which an app client
 * with a browser flow or client credentials needs. Cognito's VPC endpoint serves no request for a pool with a domain,
 * so whether a function in an isolated subnet can call the pool depends on it (`servicesOf`).
 */
export function poolHasDomain(definition: Pick<AuthDefinition, 'appClients'>): boolean {
  return Object.values(definition.appClients).some((client) => client.flows.some((flow) => flow === 'client_credentials' || (BROWSER_FLOWS as readonly string[]).includes(flow)));
}

/**
 * The attributes a signed-in user may change on themselves (Cognito's `UpdateUserAttributes` with their own access
 * token): their profile, the standard OpenID Connect attributes, as every client could before clients listed them.
 * Email and phone number changes still go through Cognito's verification. Left out: `email_verified` and
 * `phone_number_verified` (a user must not mark their own address verified), `updated_at` (Cognito keeps it) and every
 * custom attribute, above all `custom:tenant_id`: a user who could write it could move themselves into another
 * tenant. CDK's default leaves `WriteAttributes` out, documented as "all standard and custom attributes" (Cognito's
 * API reference says the standard ones; aws-cdk#21835 and #30608 report custom ones writable); an empty list counts as
 * no list. So every client gets this list, never empty.
 */
export const USER_WRITABLE_ATTRIBUTES: Readonly<cognito.StandardAttributesMask> = {
  address: true,
  birthdate: true,
  email: true,
  familyName: true,
  gender: true,
  givenName: true,
  locale: true,
  middleName: true,
  fullname: true,
  nickname: true,
  phoneNumber: true,
  profilePicture: true,
  preferredUsername: true,
  profilePage: true,
  timezone: true,
  website: true,
};

/** A standard attribute's name as Cognito writes it → its key in CDK's `StandardAttributesMask`. */
const STANDARD_ATTRIBUTE_KEYS: Readonly<Record<string, keyof cognito.StandardAttributesMask>> = {
  address: 'address',
  birthdate: 'birthdate',
  email: 'email',
  family_name: 'familyName',
  gender: 'gender',
  given_name: 'givenName',
  locale: 'locale',
  middle_name: 'middleName',
  name: 'fullname',
  nickname: 'nickname',
  phone_number: 'phoneNumber',
  picture: 'profilePicture',
  preferred_username: 'preferredUsername',
  profile: 'profilePage',
  zoneinfo: 'timezone',
  updated_at: 'lastUpdateTime',
  website: 'website',
};

/** The Cognito actions `service.auth` calls (see `grantServiceAuth`). */
export const SERVICE_AUTH_ACTIONS: readonly string[] = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:ListUsers',
  'cognito-idp:AdminListGroupsForUser',
  // confirmUser
  'cognito-idp:AdminConfirmSignUp',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  // setTenant: the tenant attribute, which no app client may write.
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminDeleteUserAttributes',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:DescribeUserPoolClient',
  'cognito-idp:DescribeUserPool',
];

/**
 * The auth intent: a Cognito user pool (password policy, MFA and sign-up from the intent), a resource server with
 * the security config's scopes, and one app client per `security.appClients` entry with its flows and scopes.
 * `issuer` and `audience` (the app client ids) feed the HTTP API's JWT authorizer and the functions' variables.
 */
export class AppAuth extends Construct {
  public readonly definition: AuthDefinition;
  public readonly userPool: cognito.UserPool;
  public readonly resourceServer: cognito.UserPoolResourceServer;
  /** By app client name. */
  public readonly appClients: ReadonlyMap<string, cognito.UserPoolClient>;
  public readonly domain?: cognito.UserPoolDomain;
  /** `https://cognito-idp.<region>.amazonaws.com/<pool id>`. */
  public readonly issuer: string;
  /** App client ids, comma-separated (one token). */
  public readonly audience: string;
  public readonly resourceServerIdentifier: string;
  /** One Cognito group per role of the security config, by role name. */
  public readonly groups: ReadonlyMap<string, cognito.CfnUserPoolGroup>;
  /** Present when given its bundle: puts the user's tenant and the scopes of their roles into their access tokens. */
  public readonly preTokenGeneration?: PreTokenGenerationTrigger;
  /** The federated identity providers of the security config, by provider name. */
  public readonly identityProviders: ReadonlyMap<string, cognito.IUserPoolIdentityProvider>;
  /** The managed login style of each browser app client, by client name (managed login needs one per client). */
  public readonly managedLoginBranding: ReadonlyMap<string, cognito.CfnManagedLoginBranding>;

  constructor(scope: Construct, id: string, props: AppAuthProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    this.resourceServerIdentifier = props.resourceServerIdentifier;
    const hasRoles = Object.keys(definition.roles).length > 0;
    // A provider that set the tenant would need the clients to write it, which would let every user set their own.
    for (const [name, provider] of Object.entries(definition.identityProviders ?? {})) {
      if (provider.attributeMapping && Object.hasOwn(provider.attributeMapping, TENANT_CLAIM)) {
        throw new InfraError('FW_ERR_INFRA_TENANT_MAPPING', `Identity provider "${name}" maps a claim to ${TENANT_CLAIM}. A mapped attribute must be writable by the app clients, and a client that may write the tenant lets every user move into another tenant. Remove ${TENANT_CLAIM} from its attributeMapping in config/security.ts and set the tenant with an admin call (AdminCreateUser, AdminUpdateUserAttributes).`);
      }
    }
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      // Access token customization (the V2 trigger event) needs the Essentials plan (or Plus); Lite refuses it.
      ...(props.preTokenGeneration ? { featurePlan: cognito.FeaturePlan.ESSENTIALS } : {}),
      userPoolName: definition.userPoolName,
      selfSignUpEnabled: definition.selfSignUp,
      signInAliases: { email: true },
      autoVerify: { email: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      mfa: definition.mfa === 'required' ? cognito.Mfa.REQUIRED : definition.mfa === 'optional' ? cognito.Mfa.OPTIONAL : cognito.Mfa.OFF,
      mfaSecondFactor: definition.mfa === 'off' ? undefined : { otp: definition.mfaFactors.includes('totp'), sms: definition.mfaFactors.includes('sms') },
      passwordPolicy: { minLength: definition.passwordMinLength, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: true },
      removalPolicy: dataRemovalPolicy(props.resources),
      // The user's tenant (`custom:tenant_id`), on every pool: a custom attribute cannot be removed once declared and
      // an unused one costs nothing, while adding one later is a schema change of a pool full of users. CloudFormation
      // adds a custom attribute to a deployed pool in place (Cognito's AddCustomAttributes; no replacement), so a pool
      // deployed before gets it on its next deploy. No app client may write it (`USER_WRITABLE_ATTRIBUTES`).
      customAttributes: { [TENANT_ATTRIBUTE]: new cognito.StringAttribute({ minLen: 1, maxLen: 64, mutable: true }) },
    });
    acknowledgeNag(this.userPool, 'cognitoPlus');
    if (definition.mfa !== 'required') acknowledgeNag(this.userPool, 'mfaOptional');
    // SMS codes go out through Amazon SNS: CDK gives the pool a role that may publish (to phone numbers, so `*`).
    if (definition.mfa !== 'off' && definition.mfaFactors.includes('sms')) acknowledgeNagFindings(this.userPool, 'mfaSmsRole', ['Resource::*']);
    this.identityProviders = new Map(Object.entries(definition.identityProviders ?? {}).map(([name, provider]) => [name, this.addIdentityProvider(name, provider)]));
    const scopes = Object.entries(definition.scopes).map(([name, description]) => new cognito.ResourceServerScope({ scopeName: name, scopeDescription: description || name }));
    this.resourceServer = this.userPool.addResourceServer('ResourceServer', { identifier: props.resourceServerIdentifier, scopes });
    const scopeByName = new Map(scopes.map((s) => [s.scopeName, s]));

    const clients = new Map<string, cognito.UserPoolClient>();
    for (const [name, client] of Object.entries(definition.appClients)) {
      const flows = new Set(client.flows);
      const browser = BROWSER_FLOWS.some((f) => flows.has(f));
      if (flows.has('client_credentials') && browser) {
        throw new InfraError('FW_ERR_INFRA_APP_CLIENT_FLOWS', `App client "${name}" combines client_credentials with ${BROWSER_FLOWS.filter((f) => flows.has(f)).join(' and ')}; Cognito allows client_credentials only on its own. Split it into two app clients in config/security.ts (one for services, one for browsers).`);
      }
      const oauth = browser || flows.has('client_credentials');
      const customScopes = client.scopes.map((s) => cognito.OAuthScope.resourceServer(this.resourceServer, scopeByName.get(s)!));
      // Cognito updates the attributes a provider maps at each federated sign-in, and only those the client may write.
      const mapped = browser ? [...this.identityProviders.keys()].flatMap((p) => Object.keys(mappingOf(definition.identityProviders[p]!))) : [];
      clients.set(
        name,
        this.userPool.addClient(`Client${name.replace(/[^A-Za-z0-9]/g, '')}`, {
          userPoolClientName: name,
          generateSecret: client.generateSecret ?? flows.has('client_credentials'),
          authFlows: { userPassword: flows.has('user_password'), userSrp: flows.has('user_srp') },
          disableOAuth: !oauth,
          oAuth: oauth
            ? {
                flows: { clientCredentials: flows.has('client_credentials'), authorizationCodeGrant: flows.has('authorization_code'), implicitCodeGrant: flows.has('implicit') },
                scopes: browser ? [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE, ...customScopes] : customScopes,
                callbackUrls: browser && client.callbackUrls?.length ? [...client.callbackUrls] : undefined,
                logoutUrls: browser && client.logoutUrls?.length ? [...client.logoutUrls] : undefined,
              }
            : undefined,
          // Federated sign-in is offered where users sign in in a browser (the managed login page lists the providers);
          // other clients keep the pool's own sign-in only (CDK would otherwise register every provider on them).
          ...(this.identityProviders.size
            ? { supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO, ...(browser ? [...this.identityProviders.keys()].map((p) => cognito.UserPoolClientIdentityProvider.custom(p)) : [])] }
            : {}),
          writeAttributes: writeAttributesOf(mapped),
          accessTokenValidity: Duration.minutes(definition.accessTokenValidityMinutes),
          idTokenValidity: Duration.minutes(definition.accessTokenValidityMinutes),
          preventUserExistenceErrors: true,
        }),
      );
    }
    // A client names its providers by name only: it must be created after them.
    for (const [name, client] of clients) if (BROWSER_FLOWS.some((f) => definition.appClients[name]!.flows.includes(f))) for (const provider of this.identityProviders.values()) client.node.addDependency(provider);
    this.appClients = clients;
    this.groups = new Map(
      Object.entries(definition.roles).map(([name, role]) => [
        name,
        new cognito.CfnUserPoolGroup(this, `Group-${name}`, { userPoolId: this.userPool.userPoolId, groupName: name, description: role.description }),
      ]),
    );
    if (hasRoles && !props.preTokenGeneration) {
      throw new InfraError('FW_ERR_INFRA_BUNDLE', `The security config declares roles (${Object.keys(definition.roles).join(', ')}) but no pre token generation trigger was bundled. Let FrameworkStack bundle the app (bundleApp bundles the trigger whenever the app has auth).`);
    }
    if (props.preTokenGeneration) {
      this.preTokenGeneration = new PreTokenGenerationTrigger(this, 'PreTokenGeneration', {
        definition,
        bundle: props.preTokenGeneration.bundle,
        settings: props.preTokenGeneration.settings,
        resourceServerIdentifier: props.resourceServerIdentifier,
      });
      this.userPool.addTrigger(cognito.UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, this.preTokenGeneration.function.function, cognito.LambdaVersion.V2_0);
    }
    // The hosted domain serves the OAuth token endpoint; only needed when a client uses an OAuth flow.
    // Managed login (Cognito's current sign-in pages, which list the federated providers) needs a style per browser
    // client; Cognito's default style is used.
    if (poolHasDomain(definition)) this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: this.domainPrefix }, managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN });
    const branding = new Map<string, cognito.CfnManagedLoginBranding>();
    for (const [name, client] of clients) {
      if (!BROWSER_FLOWS.some((f) => definition.appClients[name]!.flows.includes(f))) continue;
      branding.set(name, new cognito.CfnManagedLoginBranding(this, `ManagedLogin${name.replace(/[^A-Za-z0-9]/g, '')}`, { userPoolId: this.userPool.userPoolId, clientId: client.userPoolClientId, useCognitoProvidedValues: true }));
    }
    this.managedLoginBranding = branding;
    this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`;
    this.audience = clients.size ? Fn.join(',', [...clients.values()].map((c) => c.userPoolClientId)) : '';
  }

  /**
   * One federated provider of the security config. The OIDC client secret is a dynamic reference to its Secrets
   * Manager secret, resolved by CloudFormation: the template and the config never hold the value.
   */
  private addIdentityProvider(name: string, provider: IdentityProviderConfig): cognito.IUserPoolIdentityProvider {
    const id = `Provider${name.replace(/[^A-Za-z0-9]/g, '')}`;
    const mapping = (attributes: Readonly<Record<string, string>>): cognito.AttributeMapping => ({
      custom: Object.fromEntries(Object.entries(attributes).map(([attribute, claim]) => [attribute, cognito.ProviderAttribute.other(claim)])),
    });
    if (provider.type === 'saml') {
      return new cognito.UserPoolIdentityProviderSaml(this, id, {
        userPool: this.userPool,
        name,
        metadata: cognito.UserPoolIdentityProviderSamlMetadata.url(provider.metadataUrl),
        attributeMapping: mapping(mappingOf(provider)),
      });
    }
    const secret = SecretValue.secretsManager(provider.clientSecret.secretName, provider.clientSecret.jsonField ? { jsonField: provider.clientSecret.jsonField } : {});
    return new cognito.UserPoolIdentityProviderOidc(this, id, {
      userPool: this.userPool,
      name,
      issuerUrl: provider.issuer,
      clientId: provider.clientId,
      clientSecret: secret.unsafeUnwrap(),
      scopes: [...(provider.scopes ?? ['openid', 'email', 'profile'])],
      attributeRequestMethod: cognito.OidcAttributeRequestMethod.GET,
      attributeMapping: mapping(mappingOf(provider)),
    });
  }

  private preloaded?: PreloadedJwks;

  /** The pool's JWKS fetched at deploy, once something asked for it (`preloadJwks`). */
  public get jwks(): PreloadedJwks | undefined {
    return this.preloaded;
  }

  /**
   * The pool's JWKS fetched at deploy, for the functions that verify tokens themselves (`FW_AUTH_JWKS`). Made on the
   * first call: an app none of whose functions verifies a token deploys no fetcher.
   */
  public preloadJwks(settings: EnvironmentSettings): PreloadedJwks {
    this.preloaded ??= new PreloadedJwks(this, 'Jwks', { jwksUri: `${this.issuer}/.well-known/jwks.json`, settings });
    return this.preloaded;
  }

  /**
   * The hosted domain's prefix. Cognito prefixes are global per region across all accounts, so the default (no
   * `domainPrefix` in the auth intent) appends `-` and the first 8 hex characters of the stack's id: the stack id's
   * UUID is created with the stack, so the prefix is stable for the stack's life, differs per account and region,
   * and the template is the same on every synth. The hex suffix cannot form a word Cognito refuses.
   */
  public get domainPrefix(): string {
    const { domainPrefix, domainPrefixUnique } = this.definition;
    if (!domainPrefixUnique) return domainPrefix;
    // arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid> → the uuid's first group.
    const stackUuid = Fn.select(2, Fn.split('/', Aws.STACK_ID));
    return Fn.join('-', [domainPrefix, Fn.select(0, Fn.split('-', stackUuid))]);
  }

  /**
   * Lets `grantee` run `service.auth` (`@framework/auth`) on this pool: the admin calls of its user methods and the two
   * reads `machineToken` makes once per container (the client's secret, the pool's domain). On this pool only.
   */
  public grantServiceAuth(grantee: iam.IGrantable): iam.Grant {
    return this.userPool.grant(grantee, ...SERVICE_AUTH_ACTIONS);
  }

  /** The scope as it appears in an access token and in a route's `authorizationScopes`: `<identifier>/<scope>`. */
  public tokenScope(scope: string): string {
    return `${this.resourceServerIdentifier}/${scope}`;
  }
}

/** A provider's attribute mapping (user pool attribute → the provider's claim), with the defaults of the config. */
function mappingOf(provider: IdentityProviderConfig): Readonly<Record<string, string>> {
  return provider.attributeMapping ?? (provider.type === 'oidc' ? { email: 'email' } : {});
}

/**
 * What an app client may write: `USER_WRITABLE_ATTRIBUTES` and the standard attributes its identity providers map
 * (Cognito refuses a federated sign-in whose mapped attributes the client may not write). No custom attribute: the
 * pool declares only `tenant_id`, which no client may write (a provider mapping it is refused in the constructor), and
 * Cognito refuses a client that lists an attribute the pool does not declare.
 */
function writeAttributesOf(mapped: readonly string[]): cognito.ClientAttributes {
  const standard = mapped.flatMap((attribute) => (Object.hasOwn(STANDARD_ATTRIBUTE_KEYS, attribute) ? [STANDARD_ATTRIBUTE_KEYS[attribute]!] : []));
  return new cognito.ClientAttributes().withStandardAttributes({ ...USER_WRITABLE_ATTRIBUTES, ...Object.fromEntries(standard.map((key) => [key, true])) });
}
