import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WS_AUTHORIZER_ENV, type EnvironmentSettings, type StandaloneFunctionDefinition } from '@framework/core';
import { WS_CONNECT_AUTHORIZER_VARIABLES } from '@framework/auth/ws-connect-authorizer';
import { Construct } from 'constructs';
import type { WsAuthorizerBundle } from '../bundling/bundle-app.js';
import { AppFunction } from '../functions/app-function.js';

/** Props of `WsConnectAuthorizer`. */
export interface WsConnectAuthorizerProps {
  readonly bundle: WsAuthorizerBundle;
  readonly settings: EnvironmentSettings;
  /** The `$connect` scopes as tokens carry them (`<resource server>/<scope>`). */
  readonly tokenScopes: readonly string[];
  /** The app's resolved variables: the authorizer gets the auth ones only (pool, app clients, resource server). */
  readonly environment: Readonly<Record<string, string>>;
}

/** API Gateway waits at most 29 seconds for an authorizer; a JWKS fetch on a cold start takes well under 5. */
const AUTHORIZER_TIMEOUT_SECONDS = 10;

/**
 * The WebSocket API's `$connect` Lambda REQUEST authorizer (`@framework/auth/ws-connect-authorizer`, its own function
 * named by core's `wsConnectAuthorizerFunctionName`): it verifies the token as the HTTP API's JWT authorizer does and
 * returns the claims as the connection's authorizer context.
 *
 * No identity source, on purpose: the token is the `Authorization` header OR the `token` query parameter (browsers
 * cannot set headers on a WebSocket), and API Gateway requires every listed identity source, so listing both would
 * refuse each client that sends one. Without one, API Gateway invokes the authorizer on every `$connect` (WebSocket
 * authorizers do not cache) and the function reads either place itself. A connect without a token gets 401 when
 * `$connect` requires scopes, and the anonymous context (no caller) when it requires none.
 */
export class WsConnectAuthorizer extends Construct {
  public readonly function: AppFunction;
  public readonly authorizer: WebSocketLambdaAuthorizer;

  constructor(scope: Construct, id: string, props: WsConnectAuthorizerProps) {
    super(scope, id);
    const unit: StandaloneFunctionDefinition = {
      kind: 'function',
      id: 'auth/ws-connect',
      file: '@framework/auth/ws-connect-authorizer',
      functionName: props.bundle.functionName,
      memorySize: 256,
      timeout: AUTHORIZER_TIMEOUT_SECONDS,
      environment: {},
      description: 'Verifies the access token of a WebSocket $connect (Lambda REQUEST authorizer)',
    };
    const environment: Record<string, string> = {};
    for (const name of WS_CONNECT_AUTHORIZER_VARIABLES) if (props.environment[name] !== undefined) environment[name] = props.environment[name]!;
    environment[WS_AUTHORIZER_ENV.connectScopes] = props.tokenScopes.join(' ');
    this.function = new AppFunction(this, 'Function', { unit, bundle: props.bundle, settings: props.settings, environment });
    this.authorizer = new WebSocketLambdaAuthorizer('ConnectAuthorizer', this.function.function, { identitySource: [] });
  }
}
