import { Duration, Stack } from 'aws-cdk-lib/core';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS, apiKeyAuthorizerIdentitySources, type EnvironmentSettings, type StandaloneFunctionDefinition } from '@framework/core';
import { Construct } from 'constructs';
import type { ApiKeyAuthorizerBundle } from '../bundling/bundle-app.js';
import { InfraError } from '../errors.js';
import { AppFunction } from '../functions/app-function.js';
import type { AppNetwork } from '../network/app-network.js';

/** Props of `ApiKeyAuthorizer`. */
export interface ApiKeyAuthorizerProps {
  readonly bundle: ApiKeyAuthorizerBundle;
  readonly settings: EnvironmentSettings;
  readonly httpApi: apigw.IHttpApi;
  /** The variables it reads: the app's (its database, the auth variables, `FW_AUTH_JWKS`) and the pepper secret's. */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * How long API Gateway keeps a verdict per `Authorization` value (0: no caching, every request runs the authorizer,
   * and `X-API-Key` works too). At most 3600.
   * @default 300
   */
  readonly resultsCacheTtlSeconds?: number;
  /**
   * The private network, when the app's database lives in one (the authorizer reads `fw_api_keys`).
   * @default - outside any VPC
   */
  readonly network?: AppNetwork;
}

// Core decides the default and the identity sources: `fw dev` refuses from the same rule what this gateway refuses.
export { API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS };

/** API Gateway waits at most 10 seconds for an HTTP API authorizer. */
const AUTHORIZER_TIMEOUT_SECONDS = 10;

/**
 * The HTTP API's Lambda REQUEST authorizer (payload 2.0, simple responses) of the routes that accept API keys:
 * `@framework/integrations/api-key-authorizer` in its own function (core's `apiKeyAuthorizerFunctionName`). It takes a
 * key or, for routes that also accept tokens, an access token, and hands the caller to the function as
 * `requestContext.authorizer.lambda`.
 *
 * Identity source and caching: with a cache TTL above 0 the identity source is `$request.header.Authorization`, the
 * cache key, so deployed clients send a key as `Authorization: Bearer sk_…` (the generated client's `token`). API
 * Gateway requires every listed identity source, so listing `X-API-Key` as well would refuse every request that
 * sends only one of them. A request without `Authorization` gets 401 from the gateway without invoking the
 * authorizer, and the authorizer reads only `Authorization` (its cache key), so `X-API-Key` is no credential here;
 * `fw dev` refuses such requests the same way (core's `apiKeyAuthorizerGateRefusal`). With TTL 0 there is no
 * identity source: every request runs the authorizer, which also reads `X-API-Key`.
 */
export class ApiKeyAuthorizer extends Construct {
  public readonly function: AppFunction;
  /** The authorizer resource (in this stack). */
  public readonly authorizer: apigw.HttpAuthorizer;
  /** What routes attach, in any nested stack (by id: the resource stays here). */
  public readonly routeAuthorizer: apigw.IHttpRouteAuthorizer;

  constructor(scope: Construct, id: string, props: ApiKeyAuthorizerProps) {
    super(scope, id);
    const ttl = props.resultsCacheTtlSeconds ?? API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS;
    if (!Number.isInteger(ttl) || ttl < 0 || ttl > 3600) {
      throw new InfraError('FW_ERR_INFRA_INVALID_PROP', `apiKeyAuthorizerCacheTtlSeconds must be a whole number of seconds from 0 to 3600 (API Gateway's limit), got ${ttl}. 0 turns caching off.`);
    }
    const unit: StandaloneFunctionDefinition = {
      kind: 'function',
      id: 'fw/api-key-authorizer',
      file: '@framework/integrations/api-key-authorizer',
      functionName: props.bundle.functionName,
      memorySize: 256,
      timeout: AUTHORIZER_TIMEOUT_SECONDS,
      environment: {},
      description: 'Verifies the API key or access token of routes that accept API keys (HTTP API Lambda authorizer)',
    };
    this.function = new AppFunction(this, 'Function', { unit, bundle: props.bundle, settings: props.settings, environment: props.environment, network: props.network });
    this.authorizer = new apigw.HttpAuthorizer(this, 'Authorizer', {
      httpApi: props.httpApi,
      type: apigw.HttpAuthorizerType.LAMBDA,
      authorizerName: 'api-key',
      identitySource: apiKeyAuthorizerIdentitySources(ttl),
      authorizerUri: `arn:${Stack.of(this).partition}:apigateway:${Stack.of(this).region}:lambda:path/2015-03-31/functions/${this.function.function.functionArn}/invocations`,
      enableSimpleResponses: true,
      payloadFormatVersion: apigw.AuthorizerPayloadVersion.VERSION_2_0,
      resultsCacheTtl: Duration.seconds(ttl),
    });
    this.function.function.addPermission('InvokedByApi', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this).formatArn({ service: 'execute-api', resource: props.httpApi.apiId, resourceName: `authorizers/${this.authorizer.authorizerId}` }),
    });
    this.routeAuthorizer = apigw.HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'RouteAuthorizer', { authorizerId: this.authorizer.authorizerId, authorizerType: 'CUSTOM' });
  }
}
