import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AppDefinition } from '@framework/core';
import { expect } from 'chai';
import { checkJwt } from '../../src/dev/auth/jwt-check.js';
import { LocalIssuer } from '../../src/dev/auth/local-issuer.js';

/** The JWT authorizer of scoped routes, on its own: the verdicts the gateway turns into 401, 403 or the event's claims. */
describe('jwt check of scoped routes', () => {
  const ISSUER = 'http://127.0.0.1:3999';
  // What the check reads of the app: the project (the resource server) and whether it has the auth intent.
  const app = { project: 'tasks-api', auth: {} } as Pick<AppDefinition, 'project' | 'auth'> as AppDefinition;
  let dir: string;
  let issuer: LocalIssuer;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-jwt-check-'));
    issuer = await LocalIssuer.open(dir, ISSUER, ['web']);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const mint = async (scopes: string[]) => (await issuer.mint({ sub: 'user-1', scopes, clientId: 'web' })).token;

  it('refuses a request without a token with 401 and a Bearer challenge naming where to mint one', async () => {
    const verdict = await checkJwt(issuer, app, 'GET /tasks', ['tasks:read'], undefined);
    expect(verdict).to.deep.include({ ok: false, statusCode: 401, headers: { 'www-authenticate': 'Bearer' } });
    expect(verdict.ok === false && verdict.reason).to.contain('POST /_dev/token');
  });

  it('refuses a token that does not verify with 401 invalid_token', async () => {
    const verdict = await checkJwt(issuer, app, 'GET /tasks', ['tasks:read'], 'Bearer not-a-jwt');
    expect(verdict).to.deep.include({ ok: false, statusCode: 401 });
    expect(verdict.ok === false && verdict.headers['www-authenticate']).to.match(/^Bearer error="invalid_token"/);
  });

  it('refuses a token without any of the route scopes (prefixed as deployed) with 403 insufficient_scope', async () => {
    const verdict = await checkJwt(issuer, app, 'POST /tasks', ['tasks:write'], `Bearer ${await mint(['tasks-api/tasks:read'])}`);
    expect(verdict).to.deep.include({ ok: false, statusCode: 403, headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="tasks-api/tasks:write"' } });
  });

  it('admits a token holding one of the scopes, sent with or without the Bearer prefix, with its claims', async () => {
    const token = await mint(['tasks-api/tasks:read']);
    for (const header of [`Bearer ${token}`, token]) {
      const verdict = await checkJwt(issuer, app, 'GET /tasks', ['tasks:admin', 'tasks:read'], header);
      expect(verdict.ok, header.slice(0, 7)).to.equal(true);
      expect(verdict.ok && verdict.authorizer.scopes).to.deep.equal(['tasks-api/tasks:read']);
    }
  });
});
