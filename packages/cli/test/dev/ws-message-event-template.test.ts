import { expect } from 'chai';
import { buildMessageEvent, MessageEventTemplate, type WsApiInfo, type WsConnectionInfo } from '../../src/dev/events/ws-event.js';

/**
 * A WebSocket message's event made as text from a connection's template (what fw dev hands the function) against the
 * same event built as an object: the same keys in the same order and the same values, whatever the connection's and
 * the message's values contain; only the random ids differ, and they keep API Gateway's forms.
 */
const API: WsApiInfo = { domainName: '127.0.0.1:4010', stage: 'dev', apiId: 'local' };
const GATEWAY_ID = /^[A-Za-z0-9+/]{13}[AQgw]==$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function withoutIds(event: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(event)) as { requestContext: Record<string, unknown> };
  for (const key of ['messageId', 'extendedRequestId', 'requestId']) {
    expect(copy.requestContext[key], key).to.match(key === 'requestId' ? UUID : GATEWAY_ID);
    copy.requestContext[key] = '<id>';
  }
  return copy;
}

const CONNECTIONS: Record<string, WsConnectionInfo> = {
  'no token, no user agent': { connectionId: 'L0SM9cOFvHcCIhw=', connectedAt: 1_700_000_000_123, sourceIp: '127.0.0.1' },
  'a user agent and an authorizer context with awkward values': {
    connectionId: 'a+b/c==',
    connectedAt: 1,
    sourceIp: '::1',
    userAgent: 'agent "quoted" \\ \u00e9\u{1F600}',
    authorizer: { principalId: 'user-1', 'cognito:groups': 'admin ops', n: 3, ok: true, tricky: '\u0000routeKey\u0000", "x": "', body: '"\\u0000body\\u0000"' },
  },
};

const MESSAGES: Record<string, [routeKey: string, data: Buffer, isBinary: boolean]> = {
  'a JSON text message': ['$default', Buffer.from(JSON.stringify({ action: 'echo', text: 'hello' })), false],
  'text with quotes, backslashes, control characters and emoji': ['send-message', Buffer.from('say "hi" \\ \n\t\u0001 \u2028 \u{1F600}'), false],
  'an empty message': ['$default', Buffer.alloc(0), false],
  'a binary frame': ['$default', Buffer.from([0, 1, 2, 0xff, 0xfe]), true],
};

describe('MessageEventTemplate: a WebSocket message event as text, the same event as buildMessageEvent', () => {
  for (const [connectionName, connection] of Object.entries(CONNECTIONS)) {
    for (const [messageName, [routeKey, data, isBinary]] of Object.entries(MESSAGES)) {
      it(`${messageName}, connection with ${connectionName}`, () => {
        const now = new Date(Date.UTC(2026, 10, 23, 3, 4, 5, 678));
        const text = new MessageEventTemplate(API, connection).json(routeKey, data, isBinary, now);
        const parsed = JSON.parse(text) as unknown;
        const expected = buildMessageEvent(API, connection, routeKey, data, isBinary, now);
        expect(JSON.stringify(withoutIds(parsed))).to.equal(JSON.stringify(withoutIds(expected)));
      });
    }
  }

  it('gives each message its own ids', () => {
    const template = new MessageEventTemplate(API, CONNECTIONS['no token, no user agent']!);
    const a = JSON.parse(template.json('$default', Buffer.from('x'), false)) as { requestContext: Record<string, string> };
    const b = JSON.parse(template.json('$default', Buffer.from('x'), false)) as { requestContext: Record<string, string> };
    for (const key of ['messageId', 'extendedRequestId', 'requestId']) expect(a.requestContext[key], key).to.not.equal(b.requestContext[key]);
  });
});
