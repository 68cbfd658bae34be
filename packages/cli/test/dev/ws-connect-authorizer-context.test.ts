import { expect } from 'chai';
import { accessTokenOf } from '@framework/auth';
import { authorizerContextOf } from '@framework/auth/ws-connect-authorizer';
import { authFromWsEvent, type WsEvent } from '@framework/runtime';
import { devConnectAuthorizerContext } from '../../src/dev/engines/ws-authorizer-context.js';

/** A message event of a connection whose `$connect` authorizer returned `authorizer`. */
function messageEvent(authorizer: Record<string, unknown>): WsEvent {
  return { requestContext: { routeKey: '$default', eventType: 'MESSAGE', connectionId: 'c1', authorizer }, body: '{}', isBase64Encoded: false } as unknown as WsEvent;
}

describe('the $connect authorizer context: fw dev and the deployed authorizer give the runtime the same ctx.auth', () => {
  const saved = process.env.FW_AUTH_RESOURCE_SERVER;
  before(() => (process.env.FW_AUTH_RESOURCE_SERVER = 'tasks-api'));
  after(() => {
    if (saved === undefined) delete process.env.FW_AUTH_RESOURCE_SERVER;
    else process.env.FW_AUTH_RESOURCE_SERVER = saved;
  });

  for (const [name, claims] of [
    ['a user in two groups', { sub: 'user-1', username: 'user-1', client_id: 'web', token_use: 'access', scope: 'openid tasks-api/tasks:read tasks-api/tasks:write', 'cognito:groups': ['member', 'admin'], iss: 'https://issuer', exp: 1900000000, iat: 1800000000 }],
    ['a machine token', { sub: 'reporting', client_id: 'reporting', token_use: 'access', scope: 'tasks-api/tasks:read', iss: 'https://issuer', exp: 1900000000 }],
  ] as const) {
    it(`reads ${name} alike`, () => {
      const dev = authFromWsEvent(messageEvent(devConnectAuthorizerContext({ ...claims })));
      // Deployed: the authorizer's context, plus the principalId API Gateway adds to requestContext.authorizer.
      const deployed = authFromWsEvent(messageEvent({ ...authorizerContextOf(accessTokenOf({ ...claims })), principalId: claims.sub }));
      expect(deployed, 'deployed').to.not.equal(undefined);
      expect({ ...deployed!, claims: undefined }).to.deep.equal({ ...dev!, claims: undefined });
      expect(deployed!.subject).to.equal(claims.sub);
      expect(deployed!.appScopes).to.include('tasks:read');
      expect(deployed!.claims['client_id']).to.equal(dev!.claims['client_id']);
    });
  }
});
