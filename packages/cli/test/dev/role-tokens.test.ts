import * as fs from 'node:fs';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { DevServer } from '../../src/dev/dev-server.js';
import { smallProject } from './small-project.js';

const security = `{
  scopes: { 'items:read': 'Read', 'items:write': 'Write', 'items:admin': 'Administer' },
  appClients: {
    web: { scopes: ['items:read', 'items:write'], flows: ['authorization_code'] },
    ops: { scopes: ['items:admin'], flows: ['client_credentials'] },
  },
  roles: { admin: { scopes: ['items:read', 'items:write', 'items:admin'] }, member: { scopes: ['items:read'] }, auditor: { scopes: ['items:admin'] } },
}`;

const route = (scope: string) => `import { handler } from '@framework/runtime';\nexport const main = handler(async () => ({ ok: true }), { scopes: ['${scope}'] });\n`;

describe('POST /_dev/token with roles: the scopes deployed Cognito would give a user holding them', function () {
  this.timeout(60_000);
  let dir: string;
  let server: DevServer;
  before(async () => {
    // Given an app with two roles, a user client and a machine client, a read route and a write route
    dir = smallProject({
      'fw.config.ts': [
        `import { defineApp } from '@framework/core';`,
        `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: ${security}, envs: { dev: { preset: 'free', auth: { users: [{ username: 'tess', password: 'tess-password', roles: ['member'], tenant: 'acme' }] } } }, routesDir: 'src/routes', infrastructure: { auth: {} } });`,
        '',
      ].join('\n'),
      'src/routes/items/get.ts': route('items:read'),
      'src/routes/items/post.ts': route('items:write'),
      // A public route that verifies a token itself (as a WebSocket connect or a webhook would): @framework/auth
      // against fw dev's issuer, from the variables fw dev sets.
      'src/routes/whoami/get.ts': [
        `import { handler } from '@framework/runtime';`,
        `import { verifyAccessToken } from '@framework/auth';`,
        `export const main = handler(async (_input, ctx) => {`,
        `  const token = await verifyAccessToken(String(ctx.headers['x-token']));`,
        `  return { subject: token.subject, groups: token.groups, scopes: token.scopes };`,
        `});`,
        '',
      ].join('\n'),
    });
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false });
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const token = async (body: unknown) => {
    const response = await fetch(`${server.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { access_token: string; scope: string; client: string; error?: { code: string; message: string } } };
  };

  it('a tenant becomes the custom:tenant_id claim; a malformed tenant, or one on a machine token, is a 400', async () => {
    const { status, body } = await token({ roles: ['member'], sub: 'mia', tenant: 'acme' });
    expect(status).to.equal(200);
    expect(body).to.include({ tenant: 'acme' });
    expect(decodeJwt(body.access_token)).to.deep.include({ 'sub': 'mia', 'custom:tenant_id': 'acme' });
    expect(decodeJwt((await token({ roles: ['member'], sub: 'mia' })).body.access_token)).to.not.have.property('custom:tenant_id');
    const bad = await token({ roles: ['member'], tenant: "acme'; --" });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'INVALID_TOKEN_REQUEST' });
    expect((await token({ client: 'ops', tenant: 'acme' })).status).to.equal(400);
    // A seeded user keeps the tenant the stage config gives them when the request names none (the console's picker).
    expect(decodeJwt((await token({ roles: ['member'], sub: 'tess' })).body.access_token)).to.deep.include({ 'custom:tenant_id': 'acme' });
  });

  it('a member gets the role\'s scopes and its group: GET /items answers 200, POST /items 403 naming the scope in WWW-Authenticate', async () => {
    const { status, body } = await token({ roles: ['member'], sub: 'mia' });
    expect(status).to.equal(200);
    expect(body).to.include({ scope: 'small/items:read', client: 'web' });
    expect(decodeJwt(body.access_token)).to.deep.include({ 'sub': 'mia', 'cognito:groups': ['member'] });
    const auth = { authorization: `Bearer ${body.access_token}` };
    expect((await fetch(`${server.url}/items`, { headers: auth })).status).to.equal(200);
    const post = await fetch(`${server.url}/items`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).to.equal(403);
    // As the HTTP API answers: {"message":"Forbidden"}, the missing scope in WWW-Authenticate
    expect(post.headers.get('www-authenticate')).to.contain('small/items:write');
  });

  it('an admin through the web client gets only what the client may request (never items:admin); an auditor gets nothing', async () => {
    const admin = await token({ roles: ['admin'] });
    expect(admin.body).to.include({ scope: 'small/items:read small/items:write', client: 'web' });
    expect(decodeJwt(admin.body.access_token)['cognito:groups']).to.deep.equal(['admin']);
    const auditor = await token({ roles: ['auditor'], client: 'web' });
    expect(auditor.body).to.include({ scope: '', client: 'web' });
  });

  it('verifyAccessToken in a function under fw dev verifies the dev issuer\'s token (its JWKS, issuer and clients)', async () => {
    const { body } = await token({ roles: ['member'], sub: 'mia' });
    const response = await fetch(`${server.url}/whoami`, { headers: { 'x-token': body.access_token } });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ subject: 'mia', groups: ['member'], scopes: ['small/items:read'] });
  });

  it('refuses an undeclared role, roles with scopes, and a machine client', async () => {
    const unknown = await token({ roles: ['owner'] });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error).to.include({ code: 'UNKNOWN_ROLE' });
    expect(unknown.body.error!.message).to.contain('roles: admin, member, auditor');
    expect((await token({ roles: ['constructor'] })).body.error?.code).to.equal('UNKNOWN_ROLE');
    expect((await token({ roles: ['member'], scopes: ['items:write'] })).body.error?.code).to.equal('INVALID_TOKEN_REQUEST');
    const machine = await token({ roles: ['admin'], client: 'ops' });
    expect(machine.body.error).to.include({ code: 'INVALID_TOKEN_REQUEST' });
    expect(machine.body.error!.message).to.contain('only client_credentials');
  });
});
