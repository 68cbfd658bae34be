import { expect } from 'chai';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { accessTokenAuthorizerContext, apiKeyAuthorizerContext, createLogger, handler, registerAccessTokenVerifier, registerApiKeyRateLimitCheck, registerApiKeyVerifier, setRootLogger, TooManyRequests, Unauthorized, type ApiKeyIdentity } from '../../src/index.js';
import { httpEvent, lambdaContext } from '../fixtures/events.js';

const KEY = 'sk_test_abcdefghijkl_' + 'k'.repeat(43);

describe("handler: auth: ['jwt', 'apiKey']", () => {
  const verified: string[] = [];
  beforeEach(() => {
    setRootLogger(createLogger({ sink: () => undefined }));
    verified.length = 0;
    registerApiKeyVerifier(async (key): Promise<ApiKeyIdentity> => {
      verified.push(key);
      if (key !== KEY) throw new Unauthorized('bad key', { code: 'INVALID_API_KEY' });
      return { keyId: 'key-1', owner: 'org-7', scopes: ['tasks:read'] };
    });
  });
  afterEach(() => {
    registerApiKeyVerifier(undefined);
    setRootLogger(undefined);
  });

  const route = handler({ scopes: ['tasks:read'], auth: ['jwt', 'apiKey'], fn: (_body, ctx) => ({ subject: ctx.auth.subject, method: ctx.auth.method, keyId: ctx.auth.keyId ?? null, scopes: ctx.auth.scopes }) });
  const call = async (event: APIGatewayProxyEventV2) => {
    const result = await route(event, lambdaContext());
    return { status: result.statusCode, body: JSON.parse(result.body as string) as Record<string, unknown> & { error?: { code: string } } };
  };

  it('declares the methods in handlerInfo (what fw dev and infra read)', () => {
    expect(route.handlerInfo.auth).to.deep.equal(['jwt', 'apiKey']);
    expect(handler(() => 1).handlerInfo.auth).to.equal(undefined);
  });

  it('fills ctx.auth from a key in X-API-Key or Authorization: Bearer sk_..., with method apiKey', async () => {
    for (const headers of [{ 'x-api-key': KEY }, { authorization: `Bearer ${KEY}` }]) {
      expect(await call(httpEvent({ headers }))).to.deep.equal({ status: 200, body: { subject: 'org-7', method: 'apiKey', keyId: 'key-1', scopes: ['tasks:read'] } });
    }
    expect(verified).to.deep.equal([KEY, KEY]);
  });

  it('reads the key in Authorization before one in X-API-Key (what the cached authorizer is keyed on)', async () => {
    expect(await call(httpEvent({ headers: { authorization: `Bearer ${KEY}`, 'x-api-key': 'sk_test_other' } }))).to.have.property('status', 200);
    expect(verified).to.deep.equal([KEY]);
  });

  it("answers the verifier's 401 for a bad key, and 403 when the key lacks a scope", async () => {
    expect(await call(httpEvent({ headers: { 'x-api-key': 'sk_test_nope' } }))).to.have.nested.property('body.error.code', 'INVALID_API_KEY');
    const writer = handler({ scopes: ['tasks:write'], auth: ['apiKey'], fn: () => 1 });
    const result = await writer(httpEvent({ headers: { 'x-api-key': KEY } }), lambdaContext());
    expect(result.statusCode).to.equal(403);
  });

  it('still takes a token (method jwt), and answers 401 naming both ways without either', async () => {
    expect(await call(httpEvent({ claims: { sub: 'user-1', scope: 'tasks:read' } }))).to.deep.equal({ status: 200, body: { subject: 'user-1', method: 'jwt', keyId: null, scopes: ['tasks:read'] } });
    const none = await call(httpEvent());
    expect(none.status).to.equal(401);
    expect(JSON.stringify(none.body)).to.contain('Authorization: Bearer sk_');
    const keyOnly = handler({ auth: ['apiKey'], fn: () => 1 });
    expect((await keyOnly(httpEvent({ claims: { sub: 'user-1', scope: 'tasks:read' } }), lambdaContext())).statusCode).to.equal(401);
  });

  it('takes the token the gateway verified over an X-API-Key beside it (as the authorizer keyed on Authorization does)', async () => {
    const answer = await call(httpEvent({ claims: { sub: 'user-2', scope: 'tasks:read' }, headers: { 'x-api-key': KEY } }));
    expect(answer).to.deep.equal({ status: 200, body: { subject: 'user-2', method: 'jwt', keyId: null, scopes: ['tasks:read'] } });
    expect(verified).to.deep.equal([]);
  });

  it('verifies a bearer token itself when no gateway authorizer did (deployed, key routes have none)', async () => {
    registerAccessTokenVerifier(async (token) => {
      if (token !== 'good.jwt.token') throw new Error('signature');
      return { subject: 'user-5', scopes: ['tasks:read'], groups: [], claims: { sub: 'user-5' } };
    });
    try {
      expect(await call(httpEvent({ headers: { authorization: 'Bearer good.jwt.token' } }))).to.deep.equal({ status: 200, body: { subject: 'user-5', method: 'jwt', keyId: null, scopes: ['tasks:read'] } });
      const refused = await call(httpEvent({ headers: { authorization: 'Bearer forged.jwt.token' } }));
      expect([refused.status, refused.body.error?.code]).to.deep.equal([401, 'UNAUTHORIZED']);
    } finally {
      registerAccessTokenVerifier(undefined);
    }
  });

  it("trusts the Lambda authorizer's verdict when deployed (no verification in the function)", async () => {
    const event = httpEvent({ headers: { 'x-api-key': KEY } });
    (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: { authMethod: 'apiKey', keyId: 'key-9', owner: 'org-9', scopes: 'tasks:read tasks:write' } };
    expect(await call(event)).to.deep.equal({ status: 200, body: { subject: 'org-9', method: 'apiKey', keyId: 'key-9', scopes: ['tasks:read', 'tasks:write'] } });
    expect(verified).to.deep.equal([]);
  });

  it("takes a token the Lambda authorizer verified (method jwt, its claims), only on routes that accept tokens", async () => {
    const context = accessTokenAuthorizerContext({ subject: 'user-3', scopes: ['tasks:read'], groups: ['admin'], claims: { sub: 'user-3', 'cognito:groups': ['admin'] } });
    const event = httpEvent({ headers: { authorization: 'Bearer some.jwt.token' } });
    (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: context };
    expect(await call(event)).to.deep.equal({ status: 200, body: { subject: 'user-3', method: 'jwt', keyId: null, scopes: ['tasks:read'] } });
    const keyOnly = handler({ auth: ['apiKey'], fn: () => 1 });
    expect((await keyOnly(event, lambdaContext())).statusCode).to.equal(401);
  });

  it("counts an authorizer-verified key against its rate limit with the registered check (the gateway caches the verdict)", async () => {
    const counted: string[] = [];
    registerApiKeyRateLimitCheck((keyId, limit) => {
      counted.push(`${keyId} ${limit.requests}/${limit.windowSeconds}`);
      if (counted.length > 1) throw new TooManyRequests('over', { code: 'API_KEY_RATE_LIMITED', retryAfter: 30 });
    });
    try {
      const event = httpEvent({ headers: { 'x-api-key': KEY } });
      (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: apiKeyAuthorizerContext({ keyId: 'key-9', owner: 'org-9', scopes: ['tasks:read'] }, { requests: 1, windowSeconds: 60 }) };
      expect((await call(event)).status).to.equal(200);
      const second = await route(event, lambdaContext());
      expect([second.statusCode, second.headers?.['retry-after']]).to.deep.equal([429, '30']);
      expect(counted).to.deep.equal(['key-9 1/60', 'key-9 1/60']);
    } finally {
      registerApiKeyRateLimitCheck(undefined);
    }
  });

  it('is a 500 without the internal message when no verifier is registered', async () => {
    registerApiKeyVerifier(undefined);
    const result = await call(httpEvent({ headers: { 'x-api-key': KEY } }));
    expect(result.status).to.equal(500);
    expect(JSON.stringify(result.body)).not.to.contain('createApiKeys');
  });
});
