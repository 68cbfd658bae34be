import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { WS_ANONYMOUS_CONNECTION } from '@framework/core/names';
import { AccessTokenVerifier } from '../../src/index.js';
import { createWsConnectAuthorizer, main, type WsConnectAuthorizerEvent, type WsConnectAuthorizerResult } from '../../src/ws-connect-authorizer/index.js';
import { JwksServer, accessToken, signingKey, type SigningKey } from '../helpers/token-issuer.js';

type MutableEvent = WsConnectAuthorizerEvent & { headers: Record<string, string>; queryStringParameters: Record<string, string> };

/** The documented `$connect` authorizer event (see the fixture's README), a fresh copy per test. */
function connectEvent(token?: { header?: string; query?: string }): MutableEvent {
  const event = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/ws-connect-authorizer/connect-request.json', import.meta.url)), 'utf8')) as MutableEvent;
  if (token?.header !== undefined) event.headers['Authorization'] = token.header;
  if (token?.query !== undefined) event.queryStringParameters['token'] = token.query;
  return event;
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  expect.fail('expected the authorizer to throw');
}

const ARN = 'arn:aws:execute-api:us-east-1:123456789012:abcdef123/default/$connect';

describe('the WebSocket $connect Lambda authorizer (@framework/auth/ws-connect-authorizer)', () => {
  let key: SigningKey;
  let other: SigningKey;
  let server: JwksServer;
  let issuer: string;
  let authorize: (event: WsConnectAuthorizerEvent) => Promise<WsConnectAuthorizerResult>;
  const logged: string[] = [];

  before(async () => {
    key = await signingKey('pool-key');
    other = await signingKey('other-key');
    server = await JwksServer.start({ '/.well-known/jwks.json': [key.publicJwk] });
    issuer = server.url;
    const verifier = AccessTokenVerifier.forIssuer({ issuer, jwksUri: `${issuer}/.well-known/jwks.json`, clientIds: ['web'] });
    authorize = createWsConnectAuthorizer({ requiredScopes: ['tasks-api/tasks:read'], verify: (token) => verifier.verify(token), log: (m) => logged.push(m) });
  });
  after(() => server.stop());
  beforeEach(() => (logged.length = 0));

  it('allows a valid token in the Authorization header: Allow on the route ARN, the claims as context', async () => {
    const token = await accessToken(key, { iss: issuer, client_id: 'web', 'cognito:groups': ['member', 'admin'], scope: 'openid tasks-api/tasks:read' });
    const result = await authorize(connectEvent({ header: `Bearer ${token}` }));
    expect(result.principalId).to.equal('user-1');
    expect(result.policyDocument).to.deep.equal({ Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: ARN }] });
    expect(result.context).to.include({ sub: 'user-1', client_id: 'web', token_use: 'access', scope: 'openid tasks-api/tasks:read', 'cognito:groups': 'member admin', iss: issuer });
    // API Gateway takes flat values only.
    for (const value of Object.values(result.context!)) expect(['string', 'number', 'boolean']).to.include(typeof value);
  });

  it('allows a valid token in the token query parameter (browsers cannot set headers), the header taking precedence', async () => {
    const token = await accessToken(key, { iss: issuer, client_id: 'web' });
    expect((await authorize(connectEvent({ query: token }))).policyDocument.Statement[0].Effect).to.equal('Allow');
    const lowerCase = connectEvent();
    lowerCase.headers['authorization'] = token;
    lowerCase.queryStringParameters['token'] = 'not-a-jwt';
    expect((await authorize(lowerCase)).policyDocument.Statement[0].Effect).to.equal('Allow');
  });

  it('on a $connect without scopes: no token is an Allow with the anonymous context; a token is still verified', async () => {
    const verifier = AccessTokenVerifier.forIssuer({ issuer, jwksUri: `${issuer}/.well-known/jwks.json`, clientIds: ['web'] });
    const open = createWsConnectAuthorizer({ requiredScopes: [], verify: (token) => verifier.verify(token), log: (m) => logged.push(m) });
    const anonymous = await open(connectEvent());
    expect(anonymous.policyDocument.Statement[0].Effect).to.equal('Allow');
    expect({ principalId: anonymous.principalId, ...anonymous.context }).to.deep.equal(WS_ANONYMOUS_CONNECTION);
    const token = await accessToken(key, { iss: issuer, client_id: 'web' });
    expect((await open(connectEvent({ header: token }))).context).to.include({ sub: 'user-1' });
    expect((await refusal(open(connectEvent({ header: await accessToken(other, { iss: issuer, client_id: 'web' }) })))).message).to.equal('Unauthorized');
  });

  it('refuses a connect without a token with Unauthorized (API Gateway answers 401)', async () => {
    const error = await refusal(authorize(connectEvent()));
    expect(error.message).to.equal('Unauthorized');
    expect(logged.join('\n')).to.contain('no token');
  });

  it('refuses an expired token, another issuer\'s key and another app client with Unauthorized', async () => {
    const expired = await accessToken(key, { iss: issuer, client_id: 'web' }, { expiresIn: -60 });
    const foreign = await accessToken(other, { iss: issuer, client_id: 'web' }, { kid: 'other-key' });
    const wrongClient = await accessToken(key, { iss: issuer, client_id: 'mobile' });
    for (const [token, code] of [[expired, 'FW_ERR_AUTH_TOKEN_EXPIRED'], [foreign, 'FW_ERR_AUTH_UNKNOWN_KID'], [wrongClient, 'FW_ERR_AUTH_WRONG_CLIENT']] as const) {
      logged.length = 0;
      expect((await refusal(authorize(connectEvent({ query: token })))).message).to.equal('Unauthorized');
      expect(logged.join('\n')).to.contain(code);
    }
  });

  it('denies a valid token without the $connect scope (API Gateway answers 403), with no context', async () => {
    const token = await accessToken(key, { iss: issuer, client_id: 'web', scope: 'tasks-api/tasks:write' });
    const result = await authorize(connectEvent({ header: `Bearer ${token}` }));
    expect(result.policyDocument.Statement[0]).to.deep.equal({ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: ARN });
    expect(result).to.not.have.property('context');
    expect(logged.join('\n')).to.contain('lacks tasks-api/tasks:read');
  });

  it('deployed (main): reads the scopes from FW_WS_CONNECT_SCOPES and the pool from the auth variables', async () => {
    const names = ['FW_DEV_ENDPOINT', 'FW_AUTH_ISSUER', 'FW_AUTH_AUDIENCE', 'FW_AUTH_USER_POOL_ID', 'FW_WS_CONNECT_SCOPES'];
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    try {
      // A Cognito-shaped issuer through the same variables (the deployed pool's JWKS is AWS itself).
      Object.assign(process.env, { FW_DEV_ENDPOINT: issuer, FW_AUTH_ISSUER: issuer, FW_AUTH_AUDIENCE: 'web', FW_WS_CONNECT_SCOPES: 'tasks-api/tasks:read tasks-api/tasks:write' });
      const readOnly = await accessToken(key, { iss: issuer, client_id: 'web', scope: 'tasks-api/tasks:read' });
      expect((await main(connectEvent({ query: readOnly }))).policyDocument.Statement[0].Effect).to.equal('Deny');
      const both = await accessToken(key, { iss: issuer, client_id: 'web', scope: 'tasks-api/tasks:read tasks-api/tasks:write' });
      expect((await main(connectEvent({ query: both }))).policyDocument.Statement[0].Effect).to.equal('Allow');
      expect((await refusal(main(connectEvent()))).message).to.equal('Unauthorized');
    } finally {
      for (const name of names) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});
