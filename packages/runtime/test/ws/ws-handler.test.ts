import { expect } from 'chai';
import { WS_ANONYMOUS_CONNECTION } from '@framework/core/names';
import { BadRequest, wsHandler, type WsContext, type WsEvent } from '../../src/index.js';

/** A WebSocket API event of `routeKey`, as API Gateway builds it. */
function wsEvent(routeKey: string, eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT', extra: { body?: string; isBase64Encoded?: boolean; authorizer?: Record<string, string>; headers?: Record<string, string>; query?: Record<string, string> } = {}): WsEvent {
  return {
    ...(extra.body !== undefined ? { body: extra.body } : {}),
    isBase64Encoded: extra.isBase64Encoded ?? false,
    ...(extra.headers ? { headers: extra.headers } : {}),
    ...(extra.query ? { queryStringParameters: extra.query } : {}),
    requestContext: {
      routeKey,
      eventType,
      messageId: eventType === 'MESSAGE' ? 'm1' : undefined,
      connectionId: 'L0SM9cOFvHcCIhw=',
      connectedAt: 1,
      requestTimeEpoch: 2,
      requestId: 'req-1',
      apiId: 'abc',
      stage: 'dev',
      domainName: 'abc.execute-api.eu-west-1.amazonaws.com',
      extendedRequestId: 'x',
      requestTime: '23/Nov/2026:00:00:00 +0000',
      messageDirection: 'IN',
      ...(extra.authorizer ? { authorizer: extra.authorizer } : {}),
    },
  } as unknown as WsEvent;
}

describe('wsHandler', () => {
  it('gives the function the parsed message and ctx.connectionId, routeKey, eventType and auth from the $connect authorizer context', async () => {
    let seen: { message: unknown; ctx: WsContext } | undefined;
    const main = wsHandler(async (message, ctx) => {
      seen = { message, ctx };
    });
    const result = await main(wsEvent('chat', 'MESSAGE', { body: '{"action":"chat","text":"hi"}', authorizer: { principalId: 'user-1', sub: 'user-1', scope: 'acme/items:read other/x', 'cognito:groups': '[admins]' } }));
    expect(result).to.deep.equal({ statusCode: 200 });
    expect(seen!.message).to.deep.equal({ action: 'chat', text: 'hi' });
    expect(seen!.ctx).to.include({ connectionId: 'L0SM9cOFvHcCIhw=', routeKey: 'chat', eventType: 'MESSAGE', requestId: 'req-1' });
    expect(seen!.ctx.auth).to.deep.include({ subject: 'user-1', scopes: ['acme/items:read', 'other/x'], groups: ['admins'] });
    expect(seen!.ctx.auth!.claims).to.not.have.property('principalId');
    // the same builder as HTTP routes: roles (the groups of a user), machine mark, can()
    expect(seen!.ctx.auth).to.deep.include({ roles: ['admins'], isMachine: false });
    expect(seen!.ctx.auth!.can('other/x')).to.equal(true);
    expect(seen!.ctx.auth!.can('items:write')).to.equal(false);
    expect(main.handlerInfo).to.deep.equal({ kind: 'ws', scopes: [], middleware: [] });
  });

  it('reads the anonymous context of a public $connect (no token sent) as no caller, locally and deployed alike', async () => {
    let auth: unknown = 'unset';
    const main = wsHandler(async (_message, ctx) => void (auth = ctx.auth));
    await main(wsEvent('chat', 'MESSAGE', { body: '{}', authorizer: { ...WS_ANONYMOUS_CONNECTION } }));
    expect(auth).to.equal(undefined);
  });

  it('passes text that is not JSON as text, a binary frame as a Buffer, nothing on $connect; headers and query on $connect', async () => {
    const messages: unknown[] = [];
    const contexts: WsContext[] = [];
    const main = wsHandler(async (message, ctx) => {
      messages.push(message);
      contexts.push(ctx);
    });
    await main(wsEvent('$default', 'MESSAGE', { body: 'plain' }));
    await main(wsEvent('$default', 'MESSAGE', { body: Buffer.from([1, 2]).toString('base64'), isBase64Encoded: true }));
    await main(wsEvent('$connect', 'CONNECT', { headers: { 'User-Agent': 'test' }, query: { token: 't' } }));
    expect(messages[0]).to.equal('plain');
    expect(Buffer.isBuffer(messages[1]) && [...(messages[1] as Buffer)]).to.deep.equal([1, 2]);
    expect(messages[2]).to.equal(undefined);
    expect(contexts[2]!.headers).to.deep.equal({ 'user-agent': 'test' });
    expect(contexts[2]!.query).to.deep.equal({ token: 't' });
  });

  it('refuses a connection or message without the scopes: 401 without claims, 403 lacking a scope; the function does not run', async () => {
    let runs = 0;
    const main = wsHandler(async () => void runs++, { scopes: ['items:read'] });
    const saved = process.env.FW_AUTH_RESOURCE_SERVER;
    process.env.FW_AUTH_RESOURCE_SERVER = 'acme';
    try {
      const none = await main(wsEvent('$connect', 'CONNECT'));
      expect(none.statusCode).to.equal(401);
      expect(JSON.parse(none.body!).error.code).to.equal('UNAUTHORIZED');
      const lacking = await main(wsEvent('$connect', 'CONNECT', { authorizer: { principalId: 'u', sub: 'u', scope: 'acme/items:write evil/items:read' } }));
      expect(lacking.statusCode).to.equal(403);
      expect(JSON.parse(lacking.body!).error.code).to.equal('INSUFFICIENT_SCOPE');
      expect(runs).to.equal(0);
      expect((await main(wsEvent('$connect', 'CONNECT', { authorizer: { principalId: 'u', sub: 'u', scope: 'acme/items:read' } }))).statusCode).to.equal(200);
      expect(runs).to.equal(1);
    } finally {
      if (saved === undefined) delete process.env.FW_AUTH_RESOURCE_SERVER;
      else process.env.FW_AUTH_RESOURCE_SERVER = saved;
    }
  });

  it('answers an HttpError with its status and code, anything else 500 without the internal message, and passes a returned statusCode on', async () => {
    const refused = await wsHandler(async () => {
      throw new BadRequest('no room given');
    })(wsEvent('join', 'MESSAGE', { body: '{}' }));
    expect(refused.statusCode).to.equal(400);
    expect(JSON.parse(refused.body!).error).to.deep.equal({ code: 'BAD_REQUEST', message: 'no room given' });
    const failed = await wsHandler(async () => {
      throw new Error('secret detail');
    })(wsEvent('join', 'MESSAGE', { body: '{}' }));
    expect(failed.statusCode).to.equal(500);
    expect(failed.body).to.not.contain('secret detail');
    expect(await wsHandler(async () => ({ statusCode: 403 }))(wsEvent('$connect', 'CONNECT'))).to.deep.equal({ statusCode: 403 });
  });
});
