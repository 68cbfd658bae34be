import { defineApp, type SecurityConfig } from '@framework/core';
import { expect } from 'chai';
import { userScopes, type UserGrant } from '../../src/dev/auth/oauth/user-tokens.js';
import type { StoredUser } from '../../src/dev/auth/user-store.js';

// The scopes of the managed login's access tokens: what deployed Cognito issues (with roles, through the pre token
// generation trigger of @framework/auth; without, Cognito's own rule), so that a handler cannot tell fw dev from AWS.
const SCOPES = { 'items:read': 'Read', 'items:write': 'Write', 'workspaces:create': 'Create a workspace' };
const web = { scopes: ['items:read', 'items:write', 'workspaces:create'], flows: ['authorization_code', 'refresh_token'], callbackUrls: ['http://localhost:5173/callback'] } as const;

function app(security: Omit<SecurityConfig, 'scopes' | 'appClients'>) {
  return defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: { scopes: SCOPES, appClients: { web }, ...security }, envs: { dev: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: { auth: {} } });
}

const user = (roles: string[]): StoredUser => ({ sub: '6f1c1e0e-0000-4000-8000-000000000001', username: 'mia', roles, passwordHash: 'scrypt$x', createdAt: 0 }) as unknown as StoredUser;
const grant = (scope: string | undefined): UserGrant => ({ sub: user([]).sub, clientName: 'web', requestedScopes: scope === undefined ? [] : scope.split(' '), authTime: 0 });

describe('the managed login\'s access token scopes (fw dev, as deployed)', () => {
  describe('an app without roles: Cognito\'s own rule (the trigger leaves scopes alone)', () => {
    const noRoles = app({});

    it('the scopes the authorize request names, prefixed as Cognito writes them', () => {
      expect(userScopes(noRoles, user([]), grant('openid items:read'))).to.deep.equal(['openid', 'small/items:read']);
      expect(userScopes(noRoles, user([]), grant('openid small/items:write'))).to.deep.equal(['openid', 'small/items:write']);
    });

    it('a request naming only OpenID scopes gets none of the app\'s (deployed too: ask for the API\'s scopes)', () => {
      expect(userScopes(noRoles, user([]), grant('openid email'))).to.deep.equal(['openid', 'email']);
    });

    it('a request without `scope` gets every scope of the client, OpenID ones included', () => {
      expect(userScopes(noRoles, user([]), grant(undefined))).to.deep.equal(['openid', 'email', 'profile', 'small/items:read', 'small/items:write', 'small/workspaces:create']);
    });
  });

  describe('an app with roles and everyUser: the trigger\'s rule', () => {
    const withRoles = app({ roles: { admin: { scopes: ['items:read', 'items:write'] }, member: { scopes: ['items:read'] } }, everyUser: { scopes: ['workspaces:create'] } });

    it('a user in no role gets everyUser\'s scopes only; a member gets them on top of the role\'s', () => {
      expect(userScopes(withRoles, user([]), grant('openid email'))).to.deep.equal(['openid', 'email', 'small/workspaces:create']);
      expect(userScopes(withRoles, user(['member']), grant('openid'))).to.deep.equal(['openid', 'small/items:read', 'small/workspaces:create']);
    });

    it('a client asking for some of the app\'s scopes gets no more than those', () => {
      expect(userScopes(withRoles, user(['admin']), grant('openid items:read'))).to.deep.equal(['openid', 'small/items:read']);
    });
  });
});
