import * as fs from 'node:fs';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { DevServer } from '../../src/dev/dev-server.js';
import { smallProject } from './small-project.js';

const config = (security: string, routesDir = 'src/routes') =>
  [
    `import { defineApp } from '@framework/core';`,
    `export default defineApp({`,
    `  base: { name: 'small', region: 'eu-west-1' },`,
    `  security: ${security},`,
    `  envs: { dev: { preset: 'free' } },`,
    `  routesDir: '${routesDir}',`,
    `  infrastructure: { auth: {} },`,
    `});`,
    '',
  ].join('\n');

describe('fw dev defaults a newcomer meets', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const servers: DevServer[] = [];
  const start = async (files: Record<string, string>, warnings: string[] = []) => {
    const dir = smallProject(files);
    dirs.push(dir);
    const log = { info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined };
    const server = await DevServer.start({ rootDir: dir, port: 0, log, print: () => undefined, activityLog: false });
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) await server.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('POST /_dev/token with no body grants every declared scope the client may request, and says what it granted', async () => {
    const server = await start({
      'fw.config.ts': config(`{ scopes: { 'items:read': 'Read', 'items:write': 'Write', 'admin:all': 'Admin' }, appClients: { web: { scopes: ['items:read', 'items:write'], flows: ['authorization_code'] }, ops: { scopes: ['admin:all'], flows: ['client_credentials'] } } }`),
      'src/routes/hello/get.ts': `export const main = async () => ({ hi: true });\n`,
    });
    const response = await fetch(`${server.url}/_dev/token`, { method: 'POST' });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { access_token: string; scope: string; client: string; sub: string };
    // Scopes as the token carries them: prefixed with the resource server, as Cognito's.
    expect(body).to.include({ scope: 'small/items:read small/items:write', client: 'web', sub: 'local-user' });
    expect(decodeJwt(body.access_token)).to.include({ sub: 'local-user' });
    // A named client: its scopes.
    const ops = (await (await fetch(`${server.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client":"ops"}' })).json()) as { scope: string; client: string };
    expect(ops).to.include({ scope: 'small/admin:all', client: 'ops' });
    // A user token for scopes only a machine client may request: the answer says why and what to do.
    const forUser = await fetch(`${server.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scopes":["admin:all"],"sub":"u-1"}' });
    expect(forUser.status).to.equal(400);
    const refused = (await forUser.json()) as { error: { code: string; message: string } };
    expect(refused.error.code).to.equal('SCOPE_NOT_ALLOWED');
    expect(refused.error.message).to.match(/"ops"\) use only client_credentials/).and.match(/Leave out "sub"/);
  });

  it('without app clients, every declared scope', async () => {
    const server = await start({ 'src/routes/hello/get.ts': `export const main = async () => ({ hi: true });\n` });
    const body = (await (await fetch(`${server.url}/_dev/token`, { method: 'POST' })).json()) as { scope: string };
    expect(body.scope).to.equal('small/items:read');
  });

  it('a --stage without environment is reported as coming from --stage, not from FW_STAGE', async () => {
    const dir = smallProject({ 'src/routes/hello/get.ts': `export const main = async () => ({ hi: true });\n` });
    dirs.push(dir);
    const error = await DevServer.start({ rootDir: dir, port: 0, stage: 'staging', print: () => undefined, activityLog: false }).then(
      (server) => {
        servers.push(server);
        return undefined;
      },
      (e: Error & { code?: string }) => e,
    );
    expect(error?.code).to.equal('FW_ERR_CONFIG');
    expect(error?.message).to.contain('stage "staging" (from --stage, whose default is dev) has no environment').and.not.contain('FW_STAGE');
  });

  it('warns, naming it, when the routes folder does not exist', async () => {
    const warnings: string[] = [];
    await start({ 'fw.config.ts': config(`{ scopes: { 'items:read': 'Read' } }`, 'src/routs') }, warnings);
    expect(warnings.join('\n')).to.contain('the routes folder src/routs does not exist, so no routes are served');
  });
});
