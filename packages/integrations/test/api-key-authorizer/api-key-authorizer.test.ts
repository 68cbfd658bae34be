import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { AccessTokenVerifier } from '@framework/auth';
import { createLogger, handler, registerApiKeyRateLimitCheck, registerApiKeyVerifier, registerAccessTokenVerifier, setRootLogger } from '@framework/runtime';
import { createApiKeyAuthorizer, type ApiKeyAuthorizerResult } from '../../src/api-key-authorizer/index.js';
import { createApiKeys, createApiKeyVerifier, type ApiKeys } from '../../src/index.js';
import { secretOf } from '../support/api-key-secret.js';
import { startTestDatabase, type TestDatabase } from '../support/pglite-database.js';

const PEPPER = 'a-test-pepper-of-at-least-thirty-two-characters';
const CLIENT_ID = 'web-client';
const fixture = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../fixtures/http-api-lambda-authorizer/${name}`, import.meta.url), 'utf8')) as T;

/**
 * AWS's documented authorizer event (payload 2.0) with the request's credential headers added. Cached (infra's
 * default), `identitySource` holds the `Authorization` value (the gateway refuses a request without it before the
 * authorizer runs); uncached (TTL 0, no identity source), the event has none.
 */
const authorizerEvent = (headers: Record<string, string>, cached = true): APIGatewayRequestAuthorizerEventV2 => {
  const { identitySource: _placeholder, ...event } = fixture<APIGatewayRequestAuthorizerEventV2>('authorizer-request.json');
  if (cached && !headers['authorization']) expect.fail('a cached authorizer never gets a request without Authorization');
  return { ...event, headers: { ...event.headers, ...headers }, ...(cached ? { identitySource: [headers['authorization']!] } : {}) } as APIGatewayRequestAuthorizerEventV2;
};

/** AWS's documented route event (payload 2.0) carrying the authorizer's answer as `requestContext.authorizer.lambda`. */
const routeEvent = (result: ApiKeyAuthorizerResult, headers: Record<string, string>): APIGatewayProxyEventV2 => {
  const event = fixture<APIGatewayProxyEventV2 & { requestContext: { authorizer: { lambda: unknown } } }>('route-request.json');
  event.requestContext.authorizer.lambda = result.context;
  return { ...event, headers: { ...event.headers, ...headers } };
};

const lambdaContext = (): Context => ({ awsRequestId: 'req-1', functionName: 'tasks-api-prod-route-get-tasks', getRemainingTimeInMillis: () => 30_000 }) as unknown as Context;

/** What a promise rejected with (fails the test when it resolved). */
const rejection = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a rejection'), (error: unknown) => error as Error);

describe('the API-key Lambda authorizer (HTTP API, simple responses) against AWS\'s event shapes', () => {
  let database: TestDatabase;
  let keys: ApiKeys;
  let jwks: http.Server;
  let issuer: string;
  let signing: { privateKey: CryptoKey; publicJwk: JWK };
  let authorize: ReturnType<typeof createApiKeyAuthorizer>;
  const refusals: string[] = [];
  // The route of the example's GET /tasks: tokens or keys, tasks:read required.
  const route = handler({ scopes: ['tasks:read'], auth: ['jwt', 'apiKey'], fn: (_body, ctx) => ({ subject: ctx.auth.subject, method: ctx.auth.method, keyId: ctx.auth.keyId ?? null, scopes: ctx.auth.scopes, claims: ctx.auth.claims, isMachine: ctx.auth.isMachine }) });
  const keyOnlyRoute = handler({ auth: ['apiKey'], fn: (_body, ctx) => ({ subject: ctx.auth.subject }) });
  const call = async (fn: typeof route | typeof keyOnlyRoute, event: APIGatewayProxyEventV2) => {
    const result = await fn(event, lambdaContext());
    return { status: result.statusCode, body: JSON.parse(result.body as string) as Record<string, unknown>, headers: result.headers ?? {} };
  };

  const signToken = (claims: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub: 'user-1', client_id: CLIENT_ID, token_use: 'access', scope: 'tasks-api/tasks:read', iss: issuer, iat: now, exp: now + 600, ...claims }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(signing.privateKey);
  };

  before(async function () {
    this.timeout(60_000);
    setRootLogger(createLogger({ sink: () => undefined }));
    database = await startTestDatabase();
    const pair = await generateKeyPair('RS256', { extractable: true });
    signing = { privateKey: pair.privateKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' } };
    jwks = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [signing.publicJwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
    // The function's side: createApiKeys registers the key verifier and the rate-limit check, as the example's module does.
    keys = createApiKeys({ allowedScopes: ['tasks:read', 'tasks:write'], db: () => database.db, pepper: PEPPER, kind: 'test' });
    // aws-jwt-verify with Cognito's access-token checks, as @framework/auth's verifyAccessToken runs deployed.
    const tokens = AccessTokenVerifier.forIssuer({ issuer, jwksUri: `${issuer}/.well-known/jwks.json`, clientIds: [CLIENT_ID] });
    authorize = createApiKeyAuthorizer({ apiKeys: createApiKeyVerifier({ db: () => database.db, pepper: PEPPER, kind: 'test' }), verifyToken: (token) => tokens.verify(token), log: (message) => refusals.push(message) });
  });
  after(async () => {
    registerApiKeyVerifier(undefined);
    registerApiKeyRateLimitCheck(undefined);
    registerAccessTokenVerifier(undefined);
    setRootLogger(undefined);
    await new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve()));
    await database?.stop();
  });
  beforeEach(() => {
    refusals.length = 0;
  });

  it('allows a valid key with its caller as context, and the function fills ctx.auth as fw dev does (no second verification)', async () => {
    const { key, record } = await keys.issue({ owner: 'org-7', tenant: 'acme', name: 'ci', scopes: ['tasks:read'] });
    const headers = { authorization: `Bearer ${key}` };
    const result = await authorize(authorizerEvent(headers));
    expect(result).to.deep.equal({ isAuthorized: true, context: { authMethod: 'apiKey', keyId: record.id, owner: 'org-7', scopes: 'tasks:read', tenant: 'acme' } });
    expect(JSON.stringify(result)).not.to.contain(key);
    // Deployed: the function reads the authorizer's context. Locally (fw dev): the function verifies the key itself.
    let verifications = 0;
    registerApiKeyVerifier(async (presented) => {
      verifications += 1;
      return keys.verify(presented);
    });
    const deployed = await call(route, routeEvent(result, headers));
    expect(verifications).to.equal(0);
    const local = await call(route, { ...routeEvent(result, headers), requestContext: { ...routeEvent(result, headers).requestContext, authorizer: undefined } } as unknown as APIGatewayProxyEventV2);
    expect(verifications).to.equal(1);
    expect(deployed.status).to.equal(200);
    expect(deployed.body).to.deep.equal(local.body);
    expect(deployed.body).to.deep.include({ subject: 'org-7', method: 'apiKey', keyId: record.id, scopes: ['tasks:read'], isMachine: true });
    expect(deployed.body['claims']).to.deep.include({ 'custom:tenant_id': 'acme' });
  });

  it('takes the key from X-API-Key too when uncached (no identity source: it sees every request)', async () => {
    const { key, record } = await keys.issue({ owner: 'org-8', name: 'ci', scopes: ['tasks:read'] });
    expect(await authorize(authorizerEvent({ 'x-api-key': key }, false))).to.have.nested.property('context.keyId', record.id);
  });

  it('cached, reads only Authorization (its cache key): an X-API-Key beside a token is not what it verifies', async () => {
    const { key } = await keys.issue({ owner: 'org-8', name: 'ci', scopes: ['tasks:read'] });
    const token = await signToken({ sub: 'user-8' });
    // The verdict is kept per Authorization value: had it verified the key, the next request with this token alone
    // would pass as the key's owner.
    const result = await authorize(authorizerEvent({ authorization: `Bearer ${token}`, 'x-api-key': key }));
    expect(result.context).to.deep.include({ authMethod: 'jwt', subject: 'user-8' });
    // A garbage Authorization with a valid X-API-Key is refused: the key is not read.
    expect((await rejection(authorize(authorizerEvent({ authorization: 'Bearer nonsense', 'x-api-key': key })))).message).to.equal('Unauthorized');
    expect(refusals.join('\n')).not.to.contain(secretOf(key));
  });

  it('refuses an unknown, revoked or garbled key and a request with no credential with 401 Unauthorized, logging no key', async () => {
    const { key, record } = await keys.issue({ owner: 'org-9', name: 'ci', scopes: ['tasks:read'] });
    await keys.revoke('org-9', record.id);
    const revoked = createApiKeyAuthorizer({ apiKeys: createApiKeyVerifier({ db: () => database.db, pepper: PEPPER, kind: 'test' }), log: (message) => refusals.push(message) });
    for (const [headers, cached] of [[{ authorization: `Bearer ${key}` }, true], [{ 'x-api-key': 'sk_test_nope' }, false], [{ authorization: `Bearer ${key.replace('sk_test_', 'sk_live_')}` }, true], [{}, false]] as const) {
      expect((await rejection(revoked(authorizerEvent(headers, cached)))).message).to.equal('Unauthorized');
    }
    expect(refusals).to.have.length(4);
    expect(refusals.join('\n')).not.to.contain(secretOf(key));
  });

  it('allows a valid access token (aws-jwt-verify, the JWKS over loopback) with its claims as context; ctx.auth is the token\'s', async () => {
    const token = await signToken({ sub: 'user-42', 'cognito:groups': ['admin'] });
    const headers = { authorization: `Bearer ${token}` };
    const result = await authorize(authorizerEvent(headers));
    expect(result.isAuthorized).to.equal(true);
    expect(result.context).to.deep.include({ authMethod: 'jwt', subject: 'user-42', scopes: 'tasks-api/tasks:read', groups: 'admin' });
    const previous = process.env['FW_AUTH_RESOURCE_SERVER'];
    process.env['FW_AUTH_RESOURCE_SERVER'] = 'tasks-api';
    try {
      const answer = await call(route, routeEvent(result, headers));
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.include({ subject: 'user-42', method: 'jwt', keyId: null, scopes: ['tasks-api/tasks:read'], isMachine: false });
      expect(answer.body['claims']).to.deep.include({ sub: 'user-42', client_id: CLIENT_ID, 'cognito:groups': ['admin'] });
      // A route that takes keys only does not take a token the authorizer verified.
      expect((await call(keyOnlyRoute, routeEvent(result, headers))).status).to.equal(401);
    } finally {
      if (previous === undefined) delete process.env['FW_AUTH_RESOURCE_SERVER'];
      else process.env['FW_AUTH_RESOURCE_SERVER'] = previous;
    }
  });

  it('refuses a token signed by another key, of another client, or expired with 401 Unauthorized', async () => {
    const other = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ sub: 'user-1', client_id: CLIENT_ID, token_use: 'access', iss: issuer, iat: now, exp: now + 600 }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(other.privateKey);
    for (const token of [forged, await signToken({ client_id: 'someone-else' }), await signToken({ iat: now - 7200, exp: now - 3600 })]) {
      expect((await rejection(authorize(authorizerEvent({ authorization: `Bearer ${token}` })))).message).to.equal('Unauthorized');
    }
    expect(refusals).to.have.length(3);
  });

  it('passes the key\'s rate limit on, and the function counts it (the cached verdict is not re-run): 429 with Retry-After', async () => {
    const { key } = await keys.issue({ owner: 'org-10', name: 'ci', scopes: ['tasks:read'], rateLimit: { requests: 2, windowSeconds: 60 } });
    const headers = { authorization: `Bearer ${key}` };
    const result = await authorize(authorizerEvent(headers));
    expect(result.context).to.deep.include({ rateLimit: '2/60' });
    // One authorizer answer, cached by API Gateway, serves three requests.
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await call(route, routeEvent(result, headers));
      statuses.push(last.status);
    }
    expect(statuses).to.deep.equal([200, 200, 429]);
    expect(last!.body).to.have.nested.property('error.code', 'API_KEY_RATE_LIMITED');
    expect(Number(last!.headers['retry-after'] ?? last!.headers['Retry-After'])).to.be.within(1, 60);
  });

  it('fails (a 500 at the gateway, never an Allow) when the key store cannot be read', async () => {
    const broken = createApiKeyAuthorizer({ apiKeys: createApiKeyVerifier({ db: () => { throw new Error('connection refused'); }, pepper: PEPPER, kind: 'test' }) });
    const { key } = await keys.issue({ owner: 'org-11', name: 'ci', scopes: ['tasks:read'] });
    expect((await rejection(broken(authorizerEvent({ authorization: `Bearer ${key}` })))).message).to.equal('connection refused');
  });
});
