import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { SignJWT, decodeJwt, generateKeyPair, importJWK, type JWK } from 'jose';
import { copyExample, eventually, json, rawRequest, startDev, token, type RunningDev } from './helpers.js';

/**
 * `fw dev` on a copy of the example app, as a child process, spoken to over HTTP. Extra fixture files (an echo route,
 * a crashing, a hanging and a broken route, a failing function) are added to the copy; routes get a 3 s timeout.
 */
const FIXTURES: Record<string, string> = {
  'config/dev.ts': `import type { EnvironmentConfig } from '@framework/core';\nexport const dev: EnvironmentConfig = { preset: 'free', overrides: { functions: { timeout: 3 } } };\n`,
  'src/routes/debug/echo/[id]/post.ts': `export const main = async (event: unknown) => ({ statusCode: 200, headers: { 'content-type': 'application/json', 'x-fixture': 'echo' }, cookies: ['a=1; Path=/', 'b=2'], body: JSON.stringify({ event, env: { endpoint: process.env.FW_DEV_ENDPOINT, region: process.env.FW_REGION, dbPort: process.env.FW_DB_MAIN_PORT, queue: process.env.FW_QUEUE_TASK_EVENTS_URL, fn: process.env.AWS_LAMBDA_FUNCTION_NAME } }) });\n`,
  'src/routes/debug/binary/get.ts': `export const main = async () => ({ statusCode: 200, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]).toString('base64'), isBase64Encoded: true });\n`,
  'src/routes/debug/plain/get.ts': `export const main = async () => ({ hello: 'world' });\n`,
  'src/routes/debug/crash/get.ts': `export const main = async () => { process.exit(3); };\n`,
  'src/routes/debug/hang/get.ts': `export const main = () => new Promise(() => {});\n`,
  'src/routes/debug/broken/get.ts': `throw new Error('broken at import');\nexport const main = async () => ({ never: true });\n`,
  'src/routes/debug/greeting/get.ts': `import { greeting } from '../../../lib/greeting.js';\nexport const main = async () => ({ greeting: greeting() });\n`,
  'src/lib/greeting.ts': `export const greeting = () => 'hello v1';\n`,
  'src/functions/explode.ts': `export const main = async () => { throw new TypeError('exploded on purpose'); };\n`,
};

describe('fw dev (example app, embedded engines)', function () {
  this.timeout(60_000);
  let dir: string;
  let dev: RunningDev;
  let readToken: string;
  let writeToken: string;

  before(async () => {
    dir = copyExample(FIXTURES);
    dev = await startDev(dir, ['--engine', 'databases=embedded']);
    // The embedded database initializes in the background on first use; wait until a function reaches it.
    await eventually(async () => {
      const response = await fetch(`${dev.url}/_dev/invoke/task-summary`, { method: 'POST' });
      return response.headers.get('x-amz-function-error') ? undefined : response.status === 200 ? true : undefined;
    }, 45_000, 'the database');
    readToken = await token(dev.url, ['tasks:read']);
    writeToken = await token(dev.url, ['tasks:read', 'tasks:write']);
  });

  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${dev.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('prints the start-up table: routes with scopes, functions, queues, crons and how to get a token', async function () {
    // The table names each route's scopes, read by loading every handler once, one after another: for the example's
    // routes that is about 20 s on a 2-core machine after the database is up (more when it is busy).
    this.timeout(150_000);
    const printed = await eventually(async () => (dev.output().includes('Token (for scoped routes)') ? dev.output() : undefined), 120_000, 'the start-up table');
    expect(printed).to.match(/POST\s+\/tasks\s+tasks:write/);
    expect(printed).to.match(/GET\s+\/health\s+public/);
    expect(printed).to.contain('task-summary').and.to.contain('task-events').and.to.contain('daily-summary').and.to.contain('/_dev/token');
    // And the token it shows works on the route it shows next (the example is multi-tenant: the token's subject is a
    // seeded user, whose tenant comes with it)
    const tokenLine = /curl -s -X POST (\S+) -H 'content-type: application\/json' -d '([^']+)'/.exec(printed!);
    const routeLine = /curl -H "Authorization: Bearer <access_token>" (\S+)/.exec(printed!);
    expect(tokenLine, 'the token line').to.not.equal(null);
    expect(routeLine, 'the route line').to.not.equal(null);
    const minted = await fetch(tokenLine![1]!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenLine![2]! });
    expect(minted.status).to.equal(200);
    const shown = await fetch(routeLine![1]!, { headers: { authorization: `Bearer ${(await json(minted)).access_token}` } });
    expect(shown.status, await shown.clone().text()).to.equal(200);
  });

  describe('routes', () => {
    it('GET /health answers 200 with status, ISO timestamp and the request id', async () => {
      const response = await fetch(`${dev.url}/health`);
      const body = await json(response);
      expect(response.status).to.equal(200);
      expect(body.status).to.equal('ok');
      expect(new Date(body.timestamp).toISOString()).to.equal(body.timestamp);
      expect(body.requestId).to.equal(response.headers.get('apigw-requestid'));
    });

    it('creates, lists and updates tasks through POST /tasks, GET /tasks and PUT /tasks/{id}', async () => {
      const created = await post('/tasks', { title: 'write tests' }, { authorization: `Bearer ${writeToken}` });
      expect(created.status).to.equal(201);
      const task = await json(created);
      expect(task).to.include({ title: 'write tests', status: 'open' });

      const updated = await fetch(`${dev.url}/tasks/${task.id}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${writeToken}` }, body: JSON.stringify({ status: 'done' }) });
      expect(updated.status).to.equal(200);
      expect(await json(updated)).to.include({ id: task.id, status: 'done' });

      const listed = await json(await fetch(`${dev.url}/tasks?status=done`, { headers: { authorization: `Bearer ${readToken}` } }));
      expect(listed.tasks.map((t: { id: string }) => t.id)).to.include(task.id);
    });

    it('answers 404 for a task id that does not exist and for a path no route serves', async () => {
      const missing = await fetch(`${dev.url}/tasks/00000000-0000-4000-8000-000000000000`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${writeToken}` }, body: '{"status":"done"}' });
      expect(missing.status).to.equal(404);
      const noRoute = await fetch(`${dev.url}/nothing/here`);
      expect(noRoute.status).to.equal(404);
      // The gateway's own answer, as the HTTP API gives it; why in the dev-only header and the terminal.
      expect(await json(noRoute)).to.deep.equal({ message: 'Not Found' });
      expect(noRoute.headers.get('x-fw-dev-reason')).to.contain('no route GET /nothing/here');
      await eventually(async () => (dev.output().includes('the gateway answered 404: no route GET /nothing/here') ? true : undefined), 5_000, 'the reason in the terminal');
    });

    it('answers 400 INVALID_JSON for a malformed JSON body', async () => {
      const response = await post('/tasks', '{"title": ', { authorization: `Bearer ${writeToken}` });
      expect(response.status).to.equal(400);
      expect((await json(response)).error.code).to.equal('INVALID_JSON');
    });

    it("answers 400 VALIDATION_FAILED with every issue when a request fails the example's route schemas", async () => {
      const response = await post('/tasks', { title: '   ' }, { authorization: `Bearer ${writeToken}` });
      expect(response.status).to.equal(400);
      const { error } = await json(response);
      expect(error.code).to.equal('VALIDATION_FAILED');
      expect(error.details.issues.map((i: { in: string; path: unknown[] }) => [i.in, ...i.path])).to.deep.equal([['body', 'title']]);
      const filtered = await fetch(`${dev.url}/tasks?status=later`, { headers: { authorization: `Bearer ${readToken}` } });
      expect(filtered.status).to.equal(400);
      expect((await json(filtered)).error.details.issues[0]).to.include({ in: 'query' });
    });

    it('answers 413 for a body over the 10 MB limit of the HTTP API', async () => {
      const response = await post('/tasks', 'x'.repeat(10 * 1024 * 1024 + 1), { authorization: `Bearer ${writeToken}` });
      expect(response.status).to.equal(413);
      expect(await json(response)).to.deep.equal({ message: 'Request Entity Too Large' });
    });

    it('replays POST /tasks with the same Idempotency-Key instead of creating a second task', async () => {
      const headers = { authorization: `Bearer ${writeToken}`, 'idempotency-key': `key-${Date.now()}` };
      const first = await json(await post('/tasks', { title: 'once' }, headers));
      const second = await post('/tasks', { title: 'once' }, headers);
      expect((await json(second)).id).to.equal(first.id);
    });
  });

  describe('API Gateway HTTP API 2.0 events and results', () => {
    it('builds the event: lower-cased comma-joined headers, cookies, query, path parameters, request context', async () => {
      const response = await rawRequest(dev.url, {
        method: 'POST',
        path: '/debug/echo/a%20b?x=1&x=2&y=%C3%A9&flag',
        headers: { 'content-type': 'application/json', 'X-Multi': ['one', 'two'], cookie: 'session=abc; theme=dark' },
        body: '{"hello":"world"}',
      });
      expect(response.status).to.equal(200);
      expect(response.headers['x-fixture']).to.equal('echo');
      expect(response.headers['set-cookie']).to.deep.equal(['a=1; Path=/', 'b=2']);
      const { event, env } = JSON.parse(response.body);
      expect(event).to.include({ version: '2.0', routeKey: 'POST /debug/echo/{id}', rawPath: '/debug/echo/a%20b', rawQueryString: 'x=1&x=2&y=%C3%A9&flag', body: '{"hello":"world"}', isBase64Encoded: false });
      expect(event.cookies).to.deep.equal(['session=abc', 'theme=dark']);
      expect(event.headers['x-multi']).to.equal('one,two');
      expect(event.headers).to.not.have.property('cookie');
      expect(event.queryStringParameters).to.deep.equal({ x: '1,2', y: 'é', flag: '' });
      expect(event.pathParameters).to.deep.equal({ id: 'a b' });
      expect(event.requestContext).to.include({ stage: '$default', routeKey: 'POST /debug/echo/{id}', requestId: response.headers['apigw-requestid'] });
      expect(event.requestContext.http).to.include({ method: 'POST', path: '/debug/echo/a b', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' });
      expect(event.requestContext.timeEpoch).to.be.a('number');
      expect(event.requestContext.time).to.match(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
      expect(env).to.include({ endpoint: dev.url, region: 'eu-west-1', fn: 'tasks-api-dev-route-post-debug-echo-id' });
      expect(env.queue).to.equal(`${dev.url}/_dev/queues/task-events`);
      expect(Number(env.dbPort)).to.be.greaterThan(0);
    });

    it('base64-encodes a binary request body and decodes a base64 result', async () => {
      const sent = await fetch(`${dev.url}/debug/echo/bin`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([0, 159, 146, 150]) });
      const { event } = await json(sent);
      expect(event.isBase64Encoded).to.equal(true);
      expect(Buffer.from(event.body, 'base64')).to.deep.equal(Buffer.from([0, 159, 146, 150]));
      const binary = await fetch(`${dev.url}/debug/binary`);
      expect(Buffer.from(await binary.arrayBuffer())).to.deep.equal(Buffer.from([0, 1, 2, 255]));
    });

    it('turns a plain return value into a 200 JSON response', async () => {
      const response = await fetch(`${dev.url}/debug/plain`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/application\/json/);
      expect(await json(response)).to.deep.equal({ hello: 'world' });
    });
  });

  describe('local auth', () => {
    const keyFile = () => path.join(dir, '.fw', 'dev', 'auth', 'signing-key.json');
    const signWithProjectKey = async (claims: Record<string, unknown>, audience: string, expiresAt: number) => {
      const jwk = JSON.parse(fs.readFileSync(keyFile(), 'utf8')) as JWK;
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid! }).setIssuer(dev.url).setSubject('user-1').setAudience(audience).setIssuedAt(expiresAt - 3600).setExpirationTime(expiresAt).sign(await importJWK(jwk, 'RS256'));
    };

    it("an invitation service.auth sends (POST /members) lands in the local inbox as Cognito's email, with the temporary password", async () => {
      const admin = (await json(await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roles: ['admin'], sub: 'inviting-admin', tenant: 'acme' }) }))) as { access_token: string };
      const invited = await fetch(`${dev.url}/members`, { method: 'POST', headers: { 'authorization': `Bearer ${admin.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'invitee@acme.test' }) });
      expect(invited.status, await invited.clone().text()).to.equal(201);
      expect((await json(invited)).account).to.deep.include({ tenant: 'acme', roles: ['member'] });
      const mail = await eventually(async () => {
        const inbox = (await json(await fetch(`${dev.url}/_dev/inbox`))) as { messages: { to: string; channel: string; email?: { from: string; subject: string; text?: string } }[] };
        return inbox.messages.find((m) => m.to === 'invitee@acme.test');
      }, 15_000, 'the invitation in the local inbox');
      expect(mail.channel).to.equal('email');
      expect(mail.email).to.include({ from: 'no-reply@verificationemail.com', subject: 'Your temporary password' });
      expect(mail.email!.text).to.match(/^Your username is invitee@acme\.test and temporary password is \S+\.$/);
    });

    it('answers 401 with WWW-Authenticate: Bearer without a token (a JWT route, as the JWT authorizer does)', async () => {
      const response = await fetch(`${dev.url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect(await json(response)).to.deep.equal({ message: 'Unauthorized' });
      expect(response.headers.get('x-fw-dev-reason')).to.contain('needs a bearer token');
    });

    it('answers 401 without a token on a route that also takes API keys, as the cached API-key authorizer\'s gateway does (no WWW-Authenticate)', async () => {
      // GET /tasks takes a JWT or an API key: deployed, its Lambda authorizer is keyed on Authorization, and API
      // Gateway refuses a request without that header before any check, with no challenge header.
      const response = await fetch(`${dev.url}/tasks`);
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(null);
      expect(await json(response)).to.deep.equal({ message: 'Unauthorized' });
      expect(response.headers.get('x-fw-dev-reason')).to.contain('AUTHORIZATION_MISSING');
    });

    it('answers 403 Forbidden (the gateway) for a token without the route scope, 200 with it', async () => {
      const forbidden = await post('/tasks', { title: 'x' }, { authorization: `Bearer ${readToken}` });
      expect(forbidden.status).to.equal(403);
      expect(await json(forbidden)).to.deep.equal({ message: 'Forbidden' });
      expect(forbidden.headers.get('x-fw-dev-reason')).to.contain('requires the scope tasks-api/tasks:write');
      const allowed = await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${readToken}` } });
      expect(allowed.status).to.equal(200);
    });

    it('answers 401 for a forged, an expired and a wrong-audience token', async () => {
      const other = await generateKeyPair('RS256');
      const now = Math.floor(Date.now() / 1000);
      // The audience is the app clients' local ids (shaped as Cognito's), not their names.
      const webId = (await json(await post('/_dev/token', { scopes: ['tasks:read'], client: 'web' }))).client_id as string;
      expect(webId).to.match(/^[a-z0-9]{26}$/);
      const forged = await new SignJWT({ scope: 'tasks-api/tasks:read', client_id: webId }).setProtectedHeader({ alg: 'RS256' }).setIssuer(dev.url).setSubject('x').setExpirationTime(now + 600).sign(other.privateKey);
      const expired = await signWithProjectKey({ scope: 'tasks-api/tasks:read', client_id: webId }, webId, now - 60);
      const wrongAudience = await signWithProjectKey({ scope: 'tasks-api/tasks:read', client_id: 'other' }, 'someone-else', now + 600);
      const clientName = await signWithProjectKey({ scope: 'tasks-api/tasks:read', client_id: 'web' }, 'web', now + 600);
      for (const bad of [forged, expired, wrongAudience, clientName, 'not-a-jwt']) {
        const response = await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${bad}` } });
        expect(response.status, bad.slice(0, 20)).to.equal(401);
        expect(await json(response)).to.deep.equal({ message: 'Unauthorized' });
        expect(response.headers.get('www-authenticate')).to.match(/invalid_token/);
      }
      // (of a tenant: the example is multi-tenant, and a user without one gets its 400 TENANT_REQUIRED)
      const valid = await signWithProjectKey({ 'scope': 'tasks-api/tasks:read', 'client_id': webId, 'custom:tenant_id': 'acme' }, webId, now + 600);
      expect((await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${valid}` } })).status).to.equal(200);
    });

    it('mints Cognito-shaped tokens: prefixed scopes, a client id, groups for a user, the client as sub of a machine token', async () => {
      const user = await json(await post('/_dev/token', { scopes: ['tasks:read'], sub: 'user-7', groups: ['admins'] }));
      const userClaims = decodeJwt(user.access_token);
      expect(userClaims).to.include({ sub: 'user-7', username: 'user-7', client_id: user.client_id, token_use: 'access', scope: 'tasks-api/tasks:read' });
      expect(userClaims['cognito:groups']).to.deep.equal(['admins']);
      expect(userClaims).to.not.have.property('aud');
      expect(user).to.include({ client: 'web', scope: 'tasks-api/tasks:read' });
      // `reporting` uses only client_credentials: its token is the client's own.
      const machine = await json(await post('/_dev/token', { scopes: ['tasks:read'], client: 'reporting' }));
      const machineClaims = decodeJwt(machine.access_token);
      expect(machineClaims).to.include({ sub: machine.client_id, client_id: machine.client_id, token_use: 'access' });
      expect(machineClaims).to.not.have.property('username');
      expect(machine.client_id).to.match(/^[a-z0-9]{26}$/).and.not.equal(user.client_id);
      const withUser = await post('/_dev/token', { scopes: ['tasks:read'], client: 'reporting', sub: 'user-7' });
      expect(withUser.status).to.equal(400);
      expect((await json(withUser)).error.code).to.equal('INVALID_TOKEN_REQUEST');
      // Both are accepted by the gateway, as deployed.
      // Both are accepted by the gateway, as deployed; the multi-tenant example then asks the user's token for its tenant
      // claim (none: 400) and lets the machine name one in x-tenant-id.
      expect((await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${user.access_token}` } })).status).to.equal(400);
      expect((await fetch(`${dev.url}/tasks`, { headers: { 'authorization': `Bearer ${machine.access_token}`, 'x-tenant-id': 'acme' } })).status).to.equal(200);
    });

    it('mints only declared scopes, and serves its JWKS', async () => {
      const undeclared = await post('/_dev/token', { scopes: ['tasks:launch'], sub: 'u' });
      expect(undeclared.status).to.equal(400);
      expect((await json(undeclared)).error.code).to.equal('UNKNOWN_SCOPE');
      const notForClient = await post('/_dev/token', { scopes: ['tasks:write'], client: 'reporting' });
      expect((await json(notForClient)).error.code).to.equal('SCOPE_NOT_ALLOWED');
      const jwks = await json(await fetch(`${dev.url}/.well-known/jwks.json`));
      expect(jwks.keys).to.have.length(1);
      expect(jwks.keys[0]).to.include({ kty: 'RSA', alg: 'RS256' });
      expect(jwks.keys[0]).to.not.have.property('d');
    });
  });

  describe('isolation and limits', () => {
    it('answers 500 when a handler calls process.exit, and keeps serving', async () => {
      const response = await fetch(`${dev.url}/debug/crash`);
      expect(response.status).to.equal(500);
      expect((await fetch(`${dev.url}/health`)).status).to.equal(200);
    });

    it('answers 504 when a handler runs past its timeout, and keeps serving', async () => {
      const response = await fetch(`${dev.url}/debug/hang`);
      expect(response.status).to.equal(504);
      expect((await json(response)).error.code).to.equal('GATEWAY_TIMEOUT');
      expect((await fetch(`${dev.url}/health`)).status).to.equal(200);
    });

    it('answers 500 HANDLER_LOAD_FAILED when a handler throws at import, and keeps serving', async () => {
      const response = await fetch(`${dev.url}/debug/broken`);
      expect(response.status).to.equal(500);
      const body = await json(response);
      expect(body.error.code).to.equal('HANDLER_LOAD_FAILED');
      // The handler's words go to the console, never into a 500 body.
      expect(body.error.message).to.not.contain('broken at import');
      expect(dev.output()).to.contain('broken at import');
      expect((await fetch(`${dev.url}/health`)).status).to.equal(200);
    });
  });

  describe('freshness', () => {
    it('serves an edited route file on the next requests', async () => {
      const file = path.join(dir, 'src/routes/debug/plain/get.ts');
      fs.writeFileSync(file, `export const main = async () => ({ hello: 'edited' });\n`);
      await eventually(async () => ((await json(await fetch(`${dev.url}/debug/plain`))).hello === 'edited' ? true : undefined), 10_000, 'the edited route');
    });

    it('reloads every handler when a src/lib file changes', async () => {
      expect((await json(await fetch(`${dev.url}/debug/greeting`))).greeting).to.equal('hello v1');
      fs.writeFileSync(path.join(dir, 'src/lib/greeting.ts'), `export const greeting = () => 'hello v2';\n`);
      await eventually(async () => ((await json(await fetch(`${dev.url}/debug/greeting`))).greeting === 'hello v2' ? true : undefined), 10_000, 'the edited lib');
    });

    it('serves a route file added while running', async () => {
      fs.mkdirSync(path.join(dir, 'src/routes/debug/added'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/routes/debug/added/get.ts'), `export const main = async () => ({ added: true });\n`);
      await eventually(async () => {
        const response = await fetch(`${dev.url}/debug/added`);
        return response.status === 200 ? json(response) : undefined;
      }, 10_000, 'the added route');
    });
  });

  describe('dev endpoints', () => {
    it('POST /_dev/invoke/<function> returns the result, by id and by deployed name', async () => {
      for (const name of ['task-summary', 'tasks-api-dev-fn-task-summary']) {
        const response = await post(`/_dev/invoke/${name}`, {});
        expect(response.status).to.equal(200);
        const body = await json(response);
        expect(body).to.have.keys('open', 'done');
      }
    });

    it('reports a function error like Lambda: 200, X-Amz-Function-Error and errorType/errorMessage', async () => {
      const response = await post('/_dev/invoke/explode', {});
      expect(response.status).to.equal(200);
      expect(response.headers.get('x-amz-function-error')).to.equal('Unhandled');
      expect(await json(response)).to.deep.equal({ errorType: 'TypeError', errorMessage: 'exploded on purpose' });
    });

    it('accepts an asynchronous invocation with 202', async () => {
      const response = await post('/_dev/invoke/task-summary', {}, { 'x-amz-invocation-type': 'Event' });
      expect(response.status).to.equal(202);
      expect(await response.text()).to.equal('');
    });

    it('answers 404 for unknown names and names that try to leave src/', async () => {
      const names = ['nope', '..%2F..%2Fpackage', '../../fw.config', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', 'functions/..%2F..%2Fconfig%2Fbase', 'task-summary%00', '..'];
      for (const name of names) {
        const response = await rawRequest(dev.url, { method: 'POST', path: `/_dev/invoke/${name}`, body: '{}', headers: { 'content-type': 'application/json' } });
        expect(response.status, name).to.equal(404);
        expect(JSON.parse(response.body).error.code, name).to.equal('FUNCTION_NOT_FOUND');
      }
      for (const [route, code] of [['/_dev/invoke/queue/..%2Fsrc', 'QUEUE_NOT_FOUND'], ['/_dev/invoke/queue/nope', 'QUEUE_NOT_FOUND'], ['/_dev/invoke/cron/..%2F..%2Fsrc', 'CRON_NOT_FOUND'], ['/_dev/invoke/cron/nope', 'CRON_NOT_FOUND']] as const) {
        const response = await rawRequest(dev.url, { method: 'POST', path: route, body: '{}', headers: { 'content-type': 'application/json' } });
        expect(response.status, route).to.equal(404);
        expect(JSON.parse(response.body).error.code, route).to.equal(code);
      }
    });

    it('POST /_dev/invoke/queue/<queue> wraps the body in an SQS event for the consumer', async () => {
      const created = await json(await post('/tasks', { title: 'queued' }, { authorization: `Bearer ${writeToken}` }));
      const response = await post('/_dev/invoke/queue/task-events', { type: 'task.created', taskId: created.id });
      expect(response.status).to.equal(200);
      expect(await json(response)).to.deep.equal({ processed: 1, batchItemFailures: [] });
    });

    it('POST /_dev/invoke/cron/<cron> calls the cron with a scheduled event (which invokes the function)', async () => {
      const response = await fetch(`${dev.url}/_dev/invoke/cron/daily-summary`, { method: 'POST' });
      expect(response.status).to.equal(200);
      expect(await json(response)).to.have.keys('open', 'done');
    });

    it('GET /_dev/functions lists routes with scopes, functions, queues and crons', async () => {
      const body = await json(await fetch(`${dev.url}/_dev/functions`));
      const post = body.routes.find((r: { routeKey: string }) => r.routeKey === 'POST /tasks');
      expect(post.scopes).to.deep.equal(['tasks:write']);
      expect(body.routes.find((r: { routeKey: string }) => r.routeKey === 'GET /health').scopes).to.deep.equal([]);
      expect(body.functions.map((f: { id: string }) => f.id)).to.include.members(['task-summary', 'explode']);
      expect(body.queues[0]).to.include({ id: 'task-events', batchSize: 5, maxReceiveCount: 2 });
      expect(body.crons[0]).to.include({ id: 'daily-summary', expression: 'cron(0 7 * * ? *)' });
    });

    it('moves a failing queue message to the dead-letter queue after maxReceiveCount receives', async function () {
      this.timeout(40_000);
      const sent = await post('/_dev/queues/task-events/messages', { body: JSON.stringify({ poison: true }) });
      expect(sent.status).to.equal(202);
      const { messageId } = await json(sent);
      const dead = await eventually(async () => {
        const list = await json(await fetch(`${dev.url}/_dev/queues/task-events/dead-letters`));
        return list.messages.find((m: { messageId: string }) => m.messageId === messageId);
      }, 30_000, 'the dead-letter queue');
      expect(dead).to.include({ body: '{"poison":true}', receiveCount: 2 });
    });

    it('writes .fw/dev/state.json with the URL and every injected variable', () => {
      const state = JSON.parse(fs.readFileSync(path.join(dir, '.fw', 'dev', 'state.json'), 'utf8'));
      expect(state).to.include({ url: dev.url, stage: 'dev', pid: dev.child.pid });
      expect(state.env).to.include({ FW_DEV_ENDPOINT: dev.url, FW_PROJECT: 'tasks-api', FW_STAGE: 'dev', FW_DB_MAIN_HOST: '127.0.0.1', FW_DB_MAIN_NAME: 'main', FW_DB_MAIN_SECRET_ARN: 'local', FW_AUTH_ISSUER: dev.url, FW_AUTH_USER_POOL_ID: 'local', FW_AUTH_RESOURCE_SERVER: 'tasks-api', FW_IDEMPOTENCY_TABLE: 'tasks-api-dev-idempotency' });
      expect(state.env.FW_AUTH_AUDIENCE).to.match(/^[a-z0-9]{26},[a-z0-9]{26}$/);
    });
  });

  describe('restart', () => {
    it('keeps the embedded database across a restart and removes state.json on stop', async () => {
      const created = await json(await post('/tasks', { title: 'survives' }, { authorization: `Bearer ${writeToken}` }));
      await dev.stop();
      expect(fs.existsSync(path.join(dir, '.fw', 'dev', 'state.json'))).to.equal(false);
      dev = await startDev(dir, ['--engine', 'databases=embedded']);
      const listed = await eventually(async () => {
        const response = await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${await token(dev.url, ['tasks:read'])}` } });
        return response.status === 200 ? json(response) : undefined;
      }, 30_000, 'the restarted server');
      expect(listed.tasks.map((t: { id: string }) => t.id)).to.include(created.id);
    });
  });
});
