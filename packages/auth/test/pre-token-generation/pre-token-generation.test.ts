import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { AuthNotConfiguredError } from '../../src/index.js';
import { accessTokenScopeChanges, accessTokenTenantClaims, createPreTokenGenerationHandler, main, parseScopeRules, scopeRulesOf, TENANT_CLAIM, type ScopeRules } from '../../src/pre-token-generation/index.js';

function fixture(name: string): PreTokenGenerationV2TriggerEvent {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/pre-token-generation-v2/${name}.json`, import.meta.url)), 'utf8')) as PreTokenGenerationV2TriggerEvent;
}

// The security config of the example: three roles, a browser client that may request read and write, a reporting
// client that may request read only.
const RULES_INPUT = {
  roles: { admin: { scopes: ['tasks:read', 'tasks:write', 'tasks:admin'] }, member: { scopes: ['tasks:read', 'tasks:write'] }, viewer: { scopes: ['tasks:read'] } },
  appClients: {
    web: { scopes: ['tasks:read', 'tasks:write', 'workspaces:create'], flows: ['authorization_code'] },
    reporting: { scopes: ['tasks:read'], flows: ['user_srp'] },
  },
} as const;
const rules: ScopeRules = scopeRulesOf(RULES_INPUT);

/** Stands in for Cognito's DescribeUserPoolClient (AWS itself): the fixtures' client ids and their names. */
const CLIENT_NAMES: Record<string, string> = { '1example23456789': 'web', '2example34567890': 'reporting' };
const lookups: string[] = [];
const clientName = async (userPoolId: string, clientId: string) => {
  lookups.push(`${userPoolId}/${clientId}`);
  return CLIENT_NAMES[clientId];
};
const handler = createPreTokenGenerationHandler({ rules, resourceServer: 'tasks-api', clientName });

describe('pre-token-generation trigger (V2 events)', () => {
  it('SDK sign-in of a member: adds the role\'s scopes the client may request, prefixed as Cognito writes them', async () => {
    const event = await handler(fixture('authentication-member'));
    expect(event.response.claimsAndScopeOverrideDetails).to.deep.equal({
      accessTokenGeneration: { scopesToAdd: ['tasks-api/tasks:read', 'tasks-api/tasks:write'], scopesToSuppress: [] },
    });
    expect(lookups).to.include('us-east-1_EXAMPLE/1example23456789');
  });

  it('managed login of an admin: the union of the roles, limited to the client (tasks:admin is not the web client\'s)', async () => {
    const event = await handler(fixture('hosted-auth-admin'));
    const access = event.response.claimsAndScopeOverrideDetails.accessTokenGeneration!;
    // Read and write were requested already: nothing to add, nothing to suppress, and never tasks:admin
    expect(access).to.deep.equal({ scopesToAdd: [], scopesToSuppress: [] });
  });

  it('a user with no role loses every scope of the resource server, and keeps OpenID and other resource servers\' scopes', async () => {
    const event = await handler(fixture('refresh-tokens-no-group'));
    expect(event.response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: [], scopesToSuppress: ['tasks-api/tasks:read'] });
  });

  it('an admin through the reporting client gets read only: the client\'s limit wins over the role', async () => {
    const event = fixture('hosted-auth-admin');
    event.callerContext.clientId = '2example34567890';
    const access = (await handler(event)).response.claimsAndScopeOverrideDetails.accessTokenGeneration!;
    expect(access).to.deep.equal({ scopesToAdd: [], scopesToSuppress: ['tasks-api/tasks:write'] });
  });

  it('a client that asked for some of the app\'s scopes gets no more than those, whatever the roles grant', async () => {
    const event = fixture('hosted-auth-admin');
    event.request.scopes = ['openid', 'tasks-api/tasks:read'];
    // The admin's role grants write too, through this client; the client asked for read only.
    expect((await handler(event)).response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: [], scopesToSuppress: [] });
    // Asked for none of the app's (OpenID only): every scope the roles grant through the client.
    const openIdOnly = fixture('hosted-auth-admin');
    openIdOnly.request.scopes = ['openid', 'email'];
    expect((await handler(openIdOnly)).response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: ['tasks-api/tasks:read', 'tasks-api/tasks:write'], scopesToSuppress: [] });
  });

  describe('everyUser: scopes every signed-in user gets, in a role or not', () => {
    const everyUserHandler = createPreTokenGenerationHandler({
      rules: scopeRulesOf({ ...RULES_INPUT, everyUser: { scopes: ['workspaces:create', 'tasks:admin'] } }),
      resourceServer: 'tasks-api',
      clientName,
    });

    it('a user in no role gets them (as far as the client may request them), and loses the rest', async () => {
      const event = fixture('refresh-tokens-no-group');
      // web may request workspaces:create, not tasks:admin.
      expect((await everyUserHandler(event)).response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: [], scopesToSuppress: ['tasks-api/tasks:read'] });
      const signIn = fixture('authentication-member');
      signIn.request.groupConfiguration.groupsToOverride = [];
      expect((await everyUserHandler(signIn)).response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: ['tasks-api/workspaces:create'], scopesToSuppress: [] });
    });

    it('a member gets them on top of the role\'s', async () => {
      const event = await everyUserHandler(fixture('authentication-member'));
      expect(event.response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: ['tasks-api/tasks:read', 'tasks-api/tasks:write', 'tasks-api/workspaces:create'], scopesToSuppress: [] });
    });

    it('the variable carries them; a variable without the field (a trigger deployed before it) grants none, a wrong one is refused', () => {
      expect(parseScopeRules(JSON.stringify(scopeRulesOf({ ...RULES_INPUT, everyUser: { scopes: ['workspaces:create'] } })), 'V').everyUser).to.deep.equal(['workspaces:create']);
      expect(parseScopeRules('{"roles":{},"clients":{}}', 'V').everyUser).to.deep.equal([]);
      expect(() => parseScopeRules('{"roles":{},"clients":{},"everyUser":"workspaces:create"}', 'V')).to.throw(AuthNotConfiguredError, /V\.everyUser is not a list/);
    });
  });

  it('a client that is not in the config (made by hand) gets no role scopes', async () => {
    const event = fixture('authentication-member');
    event.callerContext.clientId = 'handmade-client';
    expect((await handler(event)).response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.deep.equal({ scopesToAdd: [], scopesToSuppress: [] });
  });

  it('keeps what another part of the response already set (claims to add stay)', async () => {
    const event = fixture('authentication-member');
    event.response.claimsAndScopeOverrideDetails = { accessTokenGeneration: { claimsToAddOrOverride: { tenant: 'acme' } }, idTokenGeneration: { claimsToSuppress: ['email'] } };
    const details = (await handler(event)).response.claimsAndScopeOverrideDetails;
    expect(details.idTokenGeneration).to.deep.equal({ claimsToSuppress: ['email'] });
    expect(details.accessTokenGeneration).to.deep.include({ claimsToAddOrOverride: { tenant: 'acme' } });
  });

  it('a user with a tenant: the access token gets custom:tenant_id, and the scopes change as for any member', async () => {
    const event = await handler(fixture('authentication-member-tenant'));
    expect(TENANT_CLAIM).to.equal('custom:tenant_id');
    expect(event.response.claimsAndScopeOverrideDetails).to.deep.equal({
      accessTokenGeneration: {
        claimsToAddOrOverride: { 'custom:tenant_id': 'acme' },
        scopesToAdd: ['tasks-api/tasks:read', 'tasks-api/tasks:write'],
        scopesToSuppress: [],
      },
    });
  });

  it('a user without a tenant gets no tenant claim at all (never an empty one)', async () => {
    for (const name of ['authentication-member', 'hosted-auth-admin', 'refresh-tokens-no-group']) {
      const access = (await handler(fixture(name))).response.claimsAndScopeOverrideDetails.accessTokenGeneration!;
      expect(access, name).to.not.have.property('claimsToAddOrOverride');
    }
    const empty = fixture('authentication-member-tenant');
    empty.request.userAttributes['custom:tenant_id'] = '';
    expect((await handler(empty)).response.claimsAndScopeOverrideDetails.accessTokenGeneration).to.not.have.property('claimsToAddOrOverride');
    expect(accessTokenTenantClaims(undefined)).to.deep.equal({});
    expect(accessTokenTenantClaims({ sub: 'x' })).to.deep.equal({});
  });

  it('the tenant claim joins the claims another part added, keeps the rest of the response, and wins over a stale tenant value', async () => {
    const event = fixture('authentication-member-tenant');
    event.response.claimsAndScopeOverrideDetails = {
      accessTokenGeneration: { claimsToAddOrOverride: { plan: 'pro', 'custom:tenant_id': 'other' }, claimsToSuppress: ['username'] },
      idTokenGeneration: { claimsToSuppress: ['email'] },
    };
    const details = (await handler(event)).response.claimsAndScopeOverrideDetails;
    expect(details.idTokenGeneration).to.deep.equal({ claimsToSuppress: ['email'] });
    expect(details.accessTokenGeneration).to.deep.equal({
      claimsToAddOrOverride: { plan: 'pro', 'custom:tenant_id': 'acme' },
      claimsToSuppress: ['username'],
      scopesToAdd: ['tasks-api/tasks:read', 'tasks-api/tasks:write'],
      scopesToSuppress: [],
    });
  });

  describe('a config without roles (the trigger only adds the tenant)', () => {
    const noRoleLookups: string[] = [];
    const noRoles = createPreTokenGenerationHandler({
      rules: scopeRulesOf({ appClients: { web: { scopes: ['tasks:read'], flows: ['authorization_code'] } } }),
      resourceServer: 'tasks-api',
      clientName: async (userPoolId, clientId) => {
        noRoleLookups.push(`${userPoolId}/${clientId}`);
        return CLIENT_NAMES[clientId];
      },
    });

    it('a user with a tenant gets custom:tenant_id, and the scopes stay as Cognito issued them', async () => {
      const event = await noRoles(fixture('authentication-member-tenant'));
      expect(event.response.claimsAndScopeOverrideDetails).to.deep.equal({ accessTokenGeneration: { claimsToAddOrOverride: { 'custom:tenant_id': 'acme' } } });
    });

    it('a user without a tenant: the response goes back untouched (no scope of the resource server suppressed)', async () => {
      for (const name of ['authentication-member', 'hosted-auth-admin', 'refresh-tokens-no-group']) {
        const event = fixture(name);
        const before = structuredClone(event.response);
        expect((await noRoles(event)).response, name).to.deep.equal(before);
      }
      // What another part of the response set stays as it was
      const event = fixture('refresh-tokens-no-group');
      event.response.claimsAndScopeOverrideDetails = { accessTokenGeneration: { claimsToSuppress: ['username'] } };
      expect((await noRoles(event)).response.claimsAndScopeOverrideDetails).to.deep.equal({ accessTokenGeneration: { claimsToSuppress: ['username'] } });
    });

    it('never asks Cognito for the client\'s name (no DescribeUserPoolClient without roles)', async () => {
      await noRoles(fixture('authentication-member-tenant'));
      await noRoles(fixture('hosted-auth-admin'));
      expect(noRoleLookups).to.deep.equal([]);
    });
  });

  it('a group named like an Object property (__proto__, constructor) grants nothing', () => {
    const parsed = parseScopeRules(JSON.stringify(rules), 'FW_AUTH_SCOPE_RULES');
    const changes = accessTokenScopeChanges({ rules: parsed, resourceServer: 'tasks-api', groups: ['__proto__', 'constructor', 'toString'], requestedScopes: [], clientName: 'web' });
    expect(changes).to.deep.equal({ scopesToAdd: [], scopesToSuppress: [] });
  });

  it('the deployed handler refuses to run without its variables (FW_ERR_AUTH_NOT_CONFIGURED)', async () => {
    const saved = process.env.FW_AUTH_SCOPE_RULES;
    process.env.FW_AUTH_RESOURCE_SERVER = 'tasks-api';
    delete process.env.FW_AUTH_SCOPE_RULES;
    try {
      let error: unknown;
      await main(fixture('authentication-member')).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(AuthNotConfiguredError);
      expect((error as Error).message).to.contain('FW_AUTH_SCOPE_RULES is not set');
      expect(() => parseScopeRules('{"roles":{"a":"x"},"clients":{}}', 'FW_AUTH_SCOPE_RULES')).to.throw(AuthNotConfiguredError, /roles\.a is not a list/);
    } finally {
      delete process.env.FW_AUTH_RESOURCE_SERVER;
      if (saved !== undefined) process.env.FW_AUTH_SCOPE_RULES = saved;
    }
  });
});
