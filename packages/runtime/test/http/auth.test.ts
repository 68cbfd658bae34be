import { expect } from 'chai';
import { createLogger, handler, setRootLogger, type Middleware } from '../../src/index.js';
import { httpEvent, lambdaContext } from '../fixtures/events.js';

describe('handler: scopes and claims', () => {
  // the app's resource server, as the deployed stack and fw dev give it to every function
  let savedResourceServer: string | undefined;
  beforeEach(() => {
    setRootLogger(createLogger({ sink: () => undefined }));
    savedResourceServer = process.env.FW_AUTH_RESOURCE_SERVER;
    process.env.FW_AUTH_RESOURCE_SERVER = 'tasks-api';
  });
  afterEach(() => {
    setRootLogger(undefined);
    if (savedResourceServer === undefined) delete process.env.FW_AUTH_RESOURCE_SERVER;
    else process.env.FW_AUTH_RESOURCE_SERVER = savedResourceServer;
  });

  // the gateway's JWT authorizer passes claims as strings (arrays become "[a b]")
  const base = { sub: '7c0e1a3f-user', iss: 'https://cognito-idp.us-east-2.amazonaws.com/us-east-2_abc', client_id: 'web' };
  const cases: Array<{ name: string; claims?: Record<string, unknown>; scopes?: string[]; status: number; code?: string }> = [
    { name: 'no claims', status: 401, code: 'UNAUTHORIZED' },
    { name: 'empty claims', claims: {}, status: 401, code: 'UNAUTHORIZED' },
    { name: 'scope claim without the scope', claims: { ...base, scope: 'tasks:read' }, status: 403, code: 'INSUFFICIENT_SCOPE' },
    { name: 'scope claim with the scope', claims: { ...base, scope: 'tasks:read tasks:write' }, status: 201 },
    { name: 'scp array with the scope', claims: { ...base, scp: ['tasks:write'] }, status: 201 },
    { name: 'scp stringified by the gateway', claims: { ...base, scp: '[tasks:read tasks:write]' }, status: 201 },
    { name: 'scopes from the authorizer only', claims: base, scopes: ['tasks:write'], status: 201 },
    { name: 'claims without any scope', claims: base, status: 403, code: 'INSUFFICIENT_SCOPE' },
    // Cognito access tokens carry custom scopes as `<resource server>/<scope>`.
    { name: 'Cognito resource-server scope', claims: { ...base, scope: 'tasks-api/tasks:read tasks-api/tasks:write' }, status: 201 },
    { name: 'Cognito scope of another name', claims: { ...base, scope: 'tasks-api/tasks:writer' }, status: 403, code: 'INSUFFICIENT_SCOPE' },
    // only the app's own resource server may prefix a scope: anyone can run a pool with a resource server "evil"
    { name: 'scope of another resource server', claims: { ...base, scope: 'evil/tasks:write' }, status: 403, code: 'INSUFFICIENT_SCOPE' },
    { name: 'scp of another resource server', claims: { ...base, scp: '[evil/tasks:write]' }, status: 403, code: 'INSUFFICIENT_SCOPE' },
    { name: 'authorizer scopes of another resource server', claims: base, scopes: ['evil/tasks:write'], status: 403, code: 'INSUFFICIENT_SCOPE' },
    { name: 'own resource server nested under another', claims: { ...base, scope: 'evil/tasks-api/tasks:write' }, status: 403, code: 'INSUFFICIENT_SCOPE' },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.status}`, async () => {
      // given a route requiring tasks:write
      const main = handler((_b, ctx) => ({ subject: ctx.auth.subject, scopes: ctx.auth.scopes }), { scopes: ['tasks:write'] });
      // when
      const event = httpEvent({ method: 'POST', ...(c.claims ? { claims: c.claims } : {}), ...(c.scopes ? { scopes: c.scopes } : {}) });
      const result = await main(event, lambdaContext());
      // then
      expect(result.statusCode).to.equal(c.status);
      const parsed = JSON.parse(result.body!);
      if (c.code) {
        expect(parsed.error.code).to.equal(c.code);
      } else {
        expect(parsed.subject).to.equal('7c0e1a3f-user');
        expect(parsed.scopes.some((s: string) => s === 'tasks:write' || s.endsWith('/tasks:write'))).to.equal(true);
      }
      if (c.status === 401) expect(result.headers?.['www-authenticate']).to.equal('Bearer');
      if (c.status === 403) expect(parsed.error.message).to.contain('tasks:write');
    });
  }

  it('accepts no prefixed scope when the function has no resource-server identifier', async () => {
    delete process.env.FW_AUTH_RESOURCE_SERVER;
    const main = handler(() => ({ ok: true }), { scopes: ['tasks:write'] });
    expect((await main(httpEvent({ method: 'POST', claims: { ...base, scope: 'tasks-api/tasks:write' } }))).statusCode).to.equal(403);
    expect((await main(httpEvent({ method: 'POST', claims: { ...base, scope: 'tasks:write' } }))).statusCode).to.equal(201);
  });

  it('follows the identifier the function is given', async () => {
    process.env.FW_AUTH_RESOURCE_SERVER = 'evil';
    const main = handler(() => ({ ok: true }), { scopes: ['tasks:write'] });
    expect((await main(httpEvent({ method: 'POST', claims: { ...base, scope: 'evil/tasks:write' } }))).statusCode).to.equal(201);
    expect((await main(httpEvent({ method: 'POST', claims: { ...base, scope: 'tasks-api/tasks:write' } }))).statusCode).to.equal(403);
  });

  it('exposes the scopes as the token has them and the app\'s own without their prefix, and the user\'s groups', async () => {
    // given a Cognito access token as the gateway passes it: prefixed scopes, one of another resource server, groups
    const main = handler((_b, ctx) => ({ scopes: ctx.auth.scopes, appScopes: ctx.auth.appScopes, groups: ctx.auth.groups, subject: ctx.auth.subject }), { scopes: ['tasks:read'] });
    const claims = { ...base, 'scope': 'tasks-api/tasks:read tasks-api/tasks:write evil/tasks:admin', 'cognito:groups': '[admins editors]' };
    // when
    const body = JSON.parse((await main(httpEvent({ claims }), lambdaContext())).body!);
    // then
    expect(body.scopes).to.deep.equal(['tasks-api/tasks:read', 'tasks-api/tasks:write', 'evil/tasks:admin']);
    expect(body.appScopes).to.deep.equal(['tasks:read', 'tasks:write']);
    expect(body.groups).to.deep.equal(['admins', 'editors']);
    expect(body.subject).to.equal('7c0e1a3f-user');
  });

  it('gives a machine (client-credentials) token the client id as subject and no groups', async () => {
    const main = handler((_b, ctx) => ({ subject: ctx.auth.subject, groups: ctx.auth.groups }), { scopes: ['tasks:read'] });
    const claims = { sub: 'abcdefghijklmnopqrstuvwxyz', client_id: 'abcdefghijklmnopqrstuvwxyz', token_use: 'access', scope: 'tasks-api/tasks:read', version: '2' };
    expect(JSON.parse((await main(httpEvent({ claims }), lambdaContext())).body!)).to.deep.equal({ subject: 'abcdefghijklmnopqrstuvwxyz', groups: [] });
  });

  it("gives the user's roles, client id and can(scope) by the routes' rule; a machine token is marked and has no roles", async () => {
    const main = handler((_b, ctx) => ({
      roles: ctx.auth.roles, clientId: ctx.auth.clientId, isMachine: ctx.auth.isMachine,
      can: ['tasks:read', 'tasks:write', 'tasks:admin', 'tasks-api/tasks:read'].filter((s) => ctx.auth.can(s)),
      keys: Object.keys(ctx.auth),
    }), { scopes: ['tasks:read'] });
    // a user's token, as Cognito issues it (username present), with a scope of another resource server
    const user = { ...base, username: 'ada', 'scope': 'tasks-api/tasks:read tasks-api/tasks:write evil/tasks:admin', 'cognito:groups': '[admin member]' };
    const forUser = JSON.parse((await main(httpEvent({ claims: user }), lambdaContext())).body!);
    expect(forUser).to.deep.include({ roles: ['admin', 'member'], clientId: 'web', isMachine: false, can: ['tasks:read', 'tasks:write', 'tasks-api/tasks:read'] });
    // `can` is a method: not among the keys a log line or a JSON body would show
    expect(forUser.keys).to.not.include('can');
    // a client-credentials token: sub is the client id, no username
    const machine = { sub: 'reporting-client', client_id: 'reporting-client', token_use: 'access', scope: 'tasks-api/tasks:read', 'cognito:groups': '[admin]' };
    expect(JSON.parse((await main(httpEvent({ claims: machine }), lambdaContext())).body!)).to.deep.include({ roles: [], clientId: 'reporting-client', isMachine: true, can: ['tasks:read', 'tasks-api/tasks:read'] });
  });

  it('requires every listed scope', async () => {
    const main = handler({ scopes: ['tasks:read', 'tasks:write'], fn: () => ({ ok: true }) });
    const partial = await main(httpEvent({ claims: { sub: 'u', scope: 'tasks:read' } }));
    expect(partial.statusCode).to.equal(403);
    expect(JSON.parse(partial.body!).error.details).to.deep.equal({ requiredScopes: ['tasks:read', 'tasks:write'], missingScopes: ['tasks:write'] });
    const full = await main(httpEvent({ claims: { sub: 'u', scope: 'tasks:write tasks:read' } }));
    expect(full.statusCode).to.equal(200);
  });

  it('runs a public route without claims, and still fills ctx.auth when claims are present', async () => {
    const main = handler((_b, ctx) => ({ subject: ctx.auth?.subject ?? null }));
    expect(JSON.parse((await main(httpEvent())).body!)).to.deep.equal({ subject: null });
    expect(JSON.parse((await main(httpEvent({ claims: { sub: 'u1', scope: 'a' } }))).body!)).to.deep.equal({ subject: 'u1' });
  });

  it('rejects before any middleware runs', async () => {
    const seen: string[] = [];
    const spy: Middleware = { name: 'spy', before: () => void seen.push('before') };
    const result = await handler(() => 'x', { scopes: ['admin'], middleware: [spy] })(httpEvent());
    expect(result.statusCode).to.equal(401);
    expect(seen).to.deep.equal([]);
  });
});

describe('handler: handlerInfo', () => {
  it('is readable without invoking the handler', () => {
    const idem: Middleware = { name: 'idempotency' };
    const main = handler({ fn: () => 'x', scopes: ['tasks:write'], middleware: [{ name: 'audit' }, idem] });
    expect(main.handlerInfo).to.deep.equal({ kind: 'http', scopes: ['tasks:write'], middleware: ['audit', 'idempotency'], idempotent: true });
    expect(Object.isFrozen(main.handlerInfo)).to.equal(true);
    expect(handler(() => 'x').handlerInfo).to.deep.equal({ kind: 'http', scopes: [], middleware: [], idempotent: false });
  });
});
