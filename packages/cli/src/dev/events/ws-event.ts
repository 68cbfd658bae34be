import { randomBytes, randomUUID } from 'node:crypto';
import { gatewayTime } from '../server/gateway-event.js';

/** What the WebSocket API knows about a connection, repeated in each of its events. */
export interface WsConnectionInfo {
  readonly connectionId: string;
  /** Epoch ms. */
  readonly connectedAt: number;
  readonly sourceIp: string;
  readonly userAgent?: string;
  /** The `$connect` authorizer's context (`principalId` and the token's claims), when the connection carried a token. */
  readonly authorizer?: Readonly<Record<string, string | number | boolean>>;
}

/** Where the events say they come from: the API's host name, stage and id. */
export interface WsApiInfo {
  readonly domainName: string;
  readonly stage: string;
  readonly apiId: string;
}

const ID_BYTES = 10;
/** Random bytes drawn ahead for ids: one `randomBytes` call per message cost more than the rest of its event. */
const idPool = { bytes: Buffer.alloc(0), offset: 0 };

/** A message id or extended request id in API Gateway's form (`L0SM9cOFvHcCIhw=`). */
export function gatewayId(): string {
  if (idPool.offset + ID_BYTES > idPool.bytes.length) {
    idPool.bytes = randomBytes(ID_BYTES * 256);
    idPool.offset = 0;
  }
  const start = idPool.offset;
  idPool.offset += ID_BYTES;
  return idPool.bytes.toString('base64', start, start + ID_BYTES);
}

/** The per-event values of a request context (a template fills them in as text, see `MessageEventTemplate`). */
interface EventIds {
  readonly extendedRequestId: string;
  readonly requestTime: string;
  readonly requestTimeEpoch: number;
  readonly requestId: string;
}

function newIds(now: Date): EventIds {
  return { extendedRequestId: gatewayId(), requestTime: gatewayTime(now), requestTimeEpoch: now.getTime(), requestId: randomUUID() };
}

function requestContext(api: WsApiInfo, connection: WsConnectionInfo, routeKey: string, eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT', ids: EventIds) {
  return {
    routeKey,
    eventType,
    extendedRequestId: ids.extendedRequestId,
    requestTime: ids.requestTime,
    messageDirection: 'IN',
    stage: api.stage,
    connectedAt: connection.connectedAt,
    requestTimeEpoch: ids.requestTimeEpoch,
    identity: { sourceIp: connection.sourceIp, ...(connection.userAgent !== undefined ? { userAgent: connection.userAgent } : {}) },
    requestId: ids.requestId,
    domainName: api.domainName,
    connectionId: connection.connectionId,
    apiId: api.apiId,
    ...(connection.authorizer ? { authorizer: { ...connection.authorizer } } : {}),
  };
}

/** Header and query maps of the upgrade request, as API Gateway passes them on `$connect` (single and multi-value). */
export interface UpgradeRequestInfo {
  /** Node's `rawHeaders`: name, value, name, value, ... */
  readonly rawHeaders: readonly string[];
  readonly query: URLSearchParams;
}

/** The `$connect` event: the upgrade request's headers and query, no body. */
export function buildConnectEvent(api: WsApiInfo, connection: WsConnectionInfo, request: UpgradeRequestInfo, now = new Date()) {
  // Keyed by the client's names: without a prototype, `__proto__` is a name like any other.
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  const multiValueHeaders: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    // API Gateway keeps the header names as sent on the WebSocket API's `$connect`.
    const name = request.rawHeaders[i]!;
    const value = request.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  const multiValueQuery: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of request.query) {
    query[name] = value;
    (multiValueQuery[name] ??= []).push(value);
  }
  const hasQuery = Object.keys(query).length > 0;
  return {
    headers,
    multiValueHeaders,
    ...(hasQuery ? { queryStringParameters: query, multiValueQueryStringParameters: multiValueQuery } : {}),
    requestContext: requestContext(api, connection, '$connect', 'CONNECT', newIds(now)),
    isBase64Encoded: false,
  };
}

/** A message's event: its route key, a new `messageId`, the frame as text (binary frames base64-encoded). */
export function buildMessageEvent(api: WsApiInfo, connection: WsConnectionInfo, routeKey: string, data: Buffer, isBinary: boolean, now = new Date()) {
  return messageEvent(api, connection, routeKey, isBinary ? data.toString('base64') : data.toString('utf8'), isBinary, gatewayId(), newIds(now));
}

function messageEvent(api: WsApiInfo, connection: WsConnectionInfo, routeKey: string, body: string, isBase64Encoded: boolean, messageId: string, ids: EventIds) {
  return {
    requestContext: { ...requestContext(api, connection, routeKey, 'MESSAGE', ids), messageId },
    body,
    isBase64Encoded,
  };
}

/**
 * A connection's message events as JSON text, the same event `buildMessageEvent` builds: the connection's fixed part
 * is serialized once (from an event with markers where the per-message values go), each message only fills in its
 * route key, ids, time and body. fw dev hands this text to the function's thread instead of an object to clone, which
 * took a large share of the dev server's time per message (see bench/ws).
 */
export class MessageEventTemplate {
  /** The text between the values, one more than `order`. */
  private readonly parts: string[];
  /** Which value goes in each hole, in the order of the text. */
  private readonly order: Hole[];

  constructor(api: WsApiInfo, connection: WsConnectionInfo) {
    // Random, so no value of the connection (a claim, the user agent) can pass for a marker.
    const nonce = randomBytes(8).toString('hex');
    const marker = (hole: Hole) => `\u0000${nonce}${hole}\u0000`;
    const sample = messageEvent(api, connection, marker('routeKey'), marker('body'), marker('isBase64Encoded') as unknown as boolean, marker('messageId'), {
      extendedRequestId: marker('extendedRequestId'),
      requestTime: marker('requestTime'),
      requestTimeEpoch: marker('requestTimeEpoch') as unknown as number,
      requestId: marker('requestId'),
    });
    // JSON writes each marker as a string of its own: `"\u0000<nonce><hole>\u0000"`.
    const pieces = JSON.stringify(sample).split(new RegExp(`"\\\\u0000${nonce}(\\w+)\\\\u0000"`));
    this.parts = pieces.filter((_, i) => i % 2 === 0);
    this.order = pieces.filter((_, i) => i % 2 === 1) as Hole[];
  }

  /** The event of one message, as JSON text. */
  json(routeKey: string, data: Buffer, isBinary: boolean, now = new Date()): string {
    const values: Record<Hole, string> = {
      routeKey: JSON.stringify(routeKey),
      body: JSON.stringify(isBinary ? data.toString('base64') : data.toString('utf8')),
      isBase64Encoded: isBinary ? 'true' : 'false',
      messageId: `"${gatewayId()}"`,
      extendedRequestId: `"${gatewayId()}"`,
      requestTime: `"${gatewayTime(now)}"`,
      requestTimeEpoch: String(now.getTime()),
      requestId: `"${randomUUID()}"`,
    };
    let text = this.parts[0]!;
    for (let i = 0; i < this.order.length; i++) text += values[this.order[i]!] + this.parts[i + 1]!;
    return text;
  }
}

type Hole = 'routeKey' | 'body' | 'isBase64Encoded' | 'messageId' | 'extendedRequestId' | 'requestTime' | 'requestTimeEpoch' | 'requestId';

/** The `$disconnect` event, with the close code and reason the connection ended with. */
export function buildDisconnectEvent(api: WsApiInfo, connection: WsConnectionInfo, statusCode: number, reason: string, now = new Date()) {
  return {
    headers: Object.create(null) as Record<string, string>,
    multiValueHeaders: Object.create(null) as Record<string, string[]>,
    requestContext: { ...requestContext(api, connection, '$disconnect', 'DISCONNECT', newIds(now)), disconnectStatusCode: statusCode, disconnectReason: reason },
    isBase64Encoded: false,
  };
}
