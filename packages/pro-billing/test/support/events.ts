import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** An HTTP API payload 2.0 event as the gateway delivers it (claims as its JWT authorizer passes them). */
export function httpEvent(overrides: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
  claims?: Record<string, unknown>;
  requestId?: string;
} = {}): APIGatewayProxyEventV2 {
  const method = overrides.method ?? 'GET';
  const path = overrides.path ?? '/tasks';
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { accept: '*/*', host: 'api.example.com', ...overrides.headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'r3pmxmplak',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '205.255.255.176', userAgent: 'curl/8.5.0' },
      requestId: overrides.requestId ?? 'JKJaXmPLvHcESHA=',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: '10/Mar/2020:05:16:23 +0000',
      timeEpoch: 1583817383220,
    },
    isBase64Encoded: false,
  };
  if (overrides.pathParameters) event.pathParameters = overrides.pathParameters;
  if (overrides.claims) {
    (event.requestContext as unknown as { authorizer: unknown }).authorizer = { jwt: { claims: overrides.claims, scopes: null } };
  }
  return event;
}

/** A user's claims (Cognito access token shape), with a tenant claim when `tenant` is given. */
export function userClaims(tenant?: string, claim = 'custom:tenant_id'): Record<string, unknown> {
  return { sub: 'user-1', username: 'ann', client_id: 'web', scope: 'tasks:read', ...(tenant !== undefined ? { [claim]: tenant } : {}) };
}

/** A machine token's claims (client credentials: `sub` is the client id, no username). */
export function machineClaims(): Record<string, unknown> {
  return { sub: 'backoffice', client_id: 'backoffice', scope: 'tasks:read' };
}
