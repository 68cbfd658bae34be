import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { RemovalPolicy, Stack } from 'aws-cdk-lib/core';
import type { ApiSettings, LogSettings, OutputValues, WsDefinition, WsRouteDefinition } from '@framework/core';
import { Construct } from 'constructs';
import type { WsConnectionRegistry } from './ws-connection-registry.js';

/** Props of `AppWebSocketApi`. */
export interface AppWebSocketApiProps {
  readonly definition: WsDefinition;
  /** The stage name (the app's stage): part of both URLs. */
  readonly stageName: string;
  /** Throttling from the stage's preset (the HTTP API's). */
  readonly settings: ApiSettings;
  readonly logs: LogSettings;
}

/**
 * The WebSocket API of `src/ws/`: `AWS::ApiGatewayV2::Api` with protocol WEBSOCKET and the app's route selection
 * expression, one stage named as the app's stage (auto-deployed, throttled, JSON access logs), and a route with a
 * Lambda proxy integration per handler file (added by the stack once the functions exist).
 */
export class AppWebSocketApi extends Construct {
  public readonly api: apigw.WebSocketApi;
  public readonly stage: apigw.WebSocketStage;
  public readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppWebSocketApiProps) {
    super(scope, id);
    this.api = new apigw.WebSocketApi(this, 'Api', { apiName: props.definition.apiName, routeSelectionExpression: props.definition.routeSelectionExpression });
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: props.logs.retentionDays as logs.RetentionDays, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = new apigw.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: props.stageName,
      autoDeploy: true,
      throttle: { rateLimit: props.settings.throttlingRateLimit, burstLimit: props.settings.throttlingBurstLimit },
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(this.accessLogs), format: AccessLogFormat.jsonWithStandardFields() },
    });
  }

  /**
   * The route of one handler file, integrated with its function (which the integration may invoke); `authorizer` on
   * `$connect` only (the one route API Gateway runs an authorizer on).
   */
  public addRoute(route: WsRouteDefinition, fn: lambda.IFunction, authorizer?: apigw.IWebSocketRouteAuthorizer): apigw.WebSocketRoute {
    return this.api.addRoute(route.routeKey, { integration: new WebSocketLambdaIntegration(`Integration-${route.functionName}`, fn), ...(authorizer ? { authorizer } : {}) });
  }

  /**
   * A route served by the framework's own function (`$connect` / `$disconnect` when `src/ws/` has no such file, so
   * the connection registry records and forgets every connection).
   */
  public addFrameworkRoute(routeKey: '$connect' | '$disconnect', fn: lambda.IFunction): apigw.WebSocketRoute {
    return this.api.addRoute(routeKey, { integration: new WebSocketLambdaIntegration(`Integration-framework${routeKey}`, fn) });
  }

  /**
   * `execute-api:ManageConnections` on this API's stage only (`POST`/`GET`/`DELETE` of `@connections/<id>`), for a
   * function that sends: connection ids are not known in advance, so the connection is a wildcard.
   */
  public grantManageConnections(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['execute-api:ManageConnections'],
      resourceArns: [Stack.of(this).formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: `${this.stage.stageName}/*/@connections/*` })],
    });
  }

  /**
   * The outputs functions get: `url` (`wss://...`), `managementUrl` (`https://...`, the `@connections` endpoint), and
   * the registry's table and fan-out queue.
   */
  public outputs(registry: WsConnectionRegistry): OutputValues<'ws'> {
    return { url: this.stage.url, managementUrl: this.stage.callbackUrl, registryTable: registry.table.tableName, fanoutQueueUrl: registry.fanoutQueue.queueUrl };
  }
}
