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

/** A message id or extended request id in API Gateway's form (`L0SM9cOFvHcCIhw=`). */
export function gatewayId(): string {
  return randomBytes(10).toString('base64');
}

function requestContext(api: WsApiInfo, connection: WsConnectionInfo, routeKey: string, eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT', now: Date) {
  return {
    routeKey,
    eventType,
    extendedRequestId: gatewayId(),
    requestTime: gatewayTime(now),
    messageDirection: 'IN',
    stage: api.stage,
    connectedAt: connection.connectedAt,
    requestTimeEpoch: now.getTime(),
    identity: { sourceIp: connection.sourceIp, ...(connection.userAgent !== undefined ? { userAgent: connection.userAgent } : {}) },
    requestId: randomUUID(),
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
    requestContext: requestContext(api, connection, '$connect', 'CONNECT', now),
    isBase64Encoded: false,
  };
}

/** A message's event: its route key, a new `messageId`, the frame as text (binary frames base64-encoded). */
export function buildMessageEvent(api: WsApiInfo, connection: WsConnectionInfo, routeKey: string, data: Buffer, isBinary: boolean, now = new Date()) {
  return {
    requestContext: { ...requestContext(api, connection, routeKey, 'MESSAGE', now), messageId: gatewayId() },
    body: isBinary ? data.toString('base64') : data.toString('utf8'),
    isBase64Encoded: isBinary,
  };
}

/** The `$disconnect` event, with the close code and reason the connection ended with. */
export function buildDisconnectEvent(api: WsApiInfo, connection: WsConnectionInfo, statusCode: number, reason: string, now = new Date()) {
  return {
    headers: Object.create(null) as Record<string, string>,
    multiValueHeaders: Object.create(null) as Record<string, string[]>,
    requestContext: { ...requestContext(api, connection, '$disconnect', 'DISCONNECT', now), disconnectStatusCode: statusCode, disconnectReason: reason },
    isBase64Encoded: false,
  };
}
