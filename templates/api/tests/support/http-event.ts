import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';

/** What a test request says: the route, an optional JSON body and the scopes of the caller's token. */
export interface TestRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** Scopes granted to the caller; absent: an anonymous request (no token). */
  readonly scopes?: readonly string[];
}

/**
 * The event the HTTP API gateway sends to a route's function (payload format 2.0). With `scopes`, the JWT
 * authorizer's claims are filled in exactly as the gateway does after verifying a token.
 */
export function httpEvent(request: TestRequest): APIGatewayProxyEventV2WithJWTAuthorizer {
  const now = new Date();
  const routeKey = `${request.method} ${request.path}`;
  const event = {
    version: '2.0',
    routeKey,
    rawPath: request.path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'localhost' },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: request.method, path: request.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'tests' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: {
          claims: request.scopes ? { sub: 'test-user', scope: request.scopes.join(' '), client_id: 'web' } : {},
          scopes: request.scopes ? [...request.scopes] : [],
        },
      },
    },
  };
  return event as APIGatewayProxyEventV2WithJWTAuthorizer;
}

/** A Lambda context, as the runtime passes it to a function. */
export function lambdaContext(functionName = 'test-fn'): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '128',
    awsRequestId: `aws-${Math.random().toString(36).slice(2)}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'tests',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The HTTP answer of a route's function. */
export interface TestResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** Calls a route's exported `main` the way the gateway does and parses its JSON answer. */
export async function call(main: (event: never, context: Context) => Promise<unknown>, request: TestRequest): Promise<TestResponse> {
  const result = (await main(httpEvent(request) as never, lambdaContext())) as { statusCode: number; headers?: Record<string, string>; body?: string };
  return { statusCode: result.statusCode, headers: result.headers ?? {}, body: result.body ? (JSON.parse(result.body) as unknown) : undefined };
}
