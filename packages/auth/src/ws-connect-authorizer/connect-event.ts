/**
 * The event API Gateway hands a Lambda REQUEST authorizer of a WebSocket API's `$connect` route: the upgrade request's
 * headers (names as the client sent them) and query string, and `methodArn`, the route's ARN
 * (`arn:aws:execute-api:<region>:<account>:<api>/<stage>/$connect`) the policy must name.
 */
export interface WsConnectAuthorizerEvent {
  readonly type: 'REQUEST';
  readonly methodArn: string;
  readonly headers?: Readonly<Record<string, string | undefined>> | null;
  readonly queryStringParameters?: Readonly<Record<string, string | undefined>> | null;
  readonly requestContext?: { readonly routeKey?: string; readonly connectionId?: string; readonly eventType?: string };
}

/**
 * The token of a `$connect`: the `Authorization` header (any case, `Bearer ` optional), else the `token` query
 * parameter (browsers cannot set headers on a WebSocket). The same rule as `fw dev`'s WebSocket server.
 */
export function connectTokenOf(event: WsConnectAuthorizerEvent): string | undefined {
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (name.toLowerCase() !== 'authorization' || typeof value !== 'string') continue;
    const match = /^(?:Bearer\s+)?(\S+)\s*$/i.exec(value);
    if (match) return match[1];
  }
  const query = event.queryStringParameters?.['token'];
  return typeof query === 'string' && query !== '' ? query : undefined;
}
