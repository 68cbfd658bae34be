import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomHex } from './random-hex.js';
import type { RouteMatch } from './route-table.js';

/** The JWT authorizer's output, as the HTTP API puts it into the event (`requestContext.authorizer.jwt`), so handlers read the same shape locally and deployed. */
export interface JwtAuthorizerContext {
  readonly claims: Record<string, string>;
  readonly scopes: string[];
}

/** What the dev server knows about one incoming request. */
export interface IncomingRequest {
  readonly method: string;
  /** Path and query as received (not decoded). */
  readonly url: string;
  /** Node's `rawHeaders`: name, value, name, value, ... */
  readonly rawHeaders: readonly string[];
  readonly body?: Buffer;
  readonly sourceIp: string;
  /** The port the request arrived on (`x-forwarded-port`; deployed `443`). */
  readonly port: number;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|graphql)|[^;]*\+(json|xml))/i;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `21/Nov/2026:10:31:17 +0000`, the gateway's `requestContext.time`. */
export function gatewayTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())} +0000`;
}

/** Whether the gateway would hand this body to the function as text (else base64). */
export function isTextBody(contentType: string | undefined): boolean {
  return contentType === undefined || contentType === '' || TEXT_TYPES.test(contentType);
}

/**
 * Builds the API Gateway HTTP API payload 2.0 event for a request, field by field as the gateway does: headers
 * lower-cased with repeated ones joined by commas, cookies moved out of the headers into `cookies`, query parameters
 * decoded with repeated ones comma-joined, `rawPath`/`rawQueryString` untouched, text bodies as text and anything
 * else base64-encoded. Header and query maps have no prototype, so any name a client sends is just a name.
 */
export function buildHttpEvent(request: IncomingRequest, match: RouteMatch, requestId: string, now: Date, authorizer?: JwtAuthorizerContext): APIGatewayProxyEventV2 {
  // Keyed by the client's names: without a prototype, `constructor` or `__proto__` are names like any other.
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let cookies: string[] | undefined;
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    if (name === 'cookie') {
      for (const c of value.split(';')) {
        const trimmed = c.trim();
        if (trimmed) (cookies ??= []).push(trimmed);
      }
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  // What the gateway adds: the caller's address appended to any `x-forwarded-for` it sent, the port and protocol the
  // request came in on (locally the dev server's own, so URLs built from them point back at it), an X-Ray trace id,
  // and the body's length (`0` without a body).
  headers['x-forwarded-for'] = headers['x-forwarded-for'] === undefined ? request.sourceIp : `${headers['x-forwarded-for']}, ${request.sourceIp}`;
  headers['x-forwarded-port'] = String(request.port);
  headers['x-forwarded-proto'] = 'http';
  headers['x-amzn-trace-id'] ??= traceId(now);
  headers['content-length'] = String(request.body?.length ?? 0);
  const q = request.url.indexOf('?');
  const rawPath = q === -1 ? request.url : request.url.slice(0, q);
  const rawQueryString = q === -1 ? '' : request.url.slice(q + 1);
  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    for (const pair of rawQueryString.split('&')) {
      if (!pair) continue;
      const eq = pair.indexOf('=');
      const key = decode(eq === -1 ? pair : pair.slice(0, eq));
      const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
      queryStringParameters ??= Object.create(null) as Record<string, string>;
      queryStringParameters[key] = queryStringParameters[key] === undefined ? value : `${queryStringParameters[key]},${value}`;
    }
  }
  let body: string | undefined;
  let isBase64Encoded = false;
  if (request.body && request.body.length > 0) {
    if (isTextBody(headers['content-type'])) body = request.body.toString('utf8');
    else {
      body = request.body.toString('base64');
      isBase64Encoded = true;
    }
  }
  const event: APIGatewayProxyEventV2 & { requestContext: { authorizer?: { jwt: JwtAuthorizerContext } } } = {
    version: '2.0',
    routeKey: match.route.routeKey,
    rawPath,
    rawQueryString,
    cookies,
    headers,
    queryStringParameters,
    pathParameters: match.pathParameters,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!.split(':')[0]!,
      // Decoded, as the HTTP API delivers it (`rawPath` keeps the path as sent).
      http: { method: request.method, path: decodePath(rawPath), protocol: 'HTTP/1.1', sourceIp: request.sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId,
      routeKey: match.route.routeKey,
      stage: '$default',
      time: gatewayTime(now),
      timeEpoch: now.getTime(),
      ...(authorizer ? { authorizer: { jwt: authorizer } } : {}),
    },
    body,
    isBase64Encoded,
  };
  return event;
}

/** `Root=1-<epoch seconds, 8 hex>-<24 hex>`: an X-Ray trace id as the gateway adds it. */
export function traceId(now: Date): string {
  return `Root=1-${Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0')}-${randomHex(12)}`;
}

/** Percent-decoded path; a sequence that does not decode stays as sent. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
