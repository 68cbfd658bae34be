import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { RemovalPolicy } from 'aws-cdk-lib/core';
import type { ApiSettings, LogSettings } from '@framework/core';
import { Construct } from 'constructs';

/** Props of `AppHttpApi`. */
export interface AppHttpApiProps {
  /** The API's name (the stack name). */
  readonly apiName: string;
  /** Throttling from the stage's preset. */
  readonly settings: ApiSettings;
  readonly logs: LogSettings;
  /**
   * JWT authorizer settings; routes with scopes use it.
   * @default - no authorizer (the app has no auth intent)
   */
  readonly jwt?: { readonly issuer: string; readonly audience: readonly string[] };
}

/**
 * The HTTP API in front of the route functions: `$default` stage with the preset's throttling and JSON access logs,
 * and a JWT authorizer reading `Authorization: Bearer <token>`. Routes are added by the stack (in route shards).
 */
export class AppHttpApi extends Construct {
  public readonly api: apigw.HttpApi;
  public readonly stage: apigw.HttpStage;
  public readonly accessLogs: logs.LogGroup;
  /** The authorizer, as routes in any nested stack attach it. */
  public readonly authorizer?: apigw.IHttpRouteAuthorizer;
  public readonly authorizerResource?: apigw.HttpAuthorizer;

  constructor(scope: Construct, id: string, props: AppHttpApiProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, 'Api', { apiName: props.apiName, createDefaultStage: false });
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: props.logs.retentionDays as logs.RetentionDays, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.settings.throttlingRateLimit, burstLimit: props.settings.throttlingBurstLimit },
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(this.accessLogs), format: AccessLogFormat.jsonWithStandardFields() },
    });
    if (props.jwt) {
      this.authorizerResource = new apigw.HttpAuthorizer(this, 'JwtAuthorizer', {
        httpApi: this.api,
        type: apigw.HttpAuthorizerType.JWT,
        identitySource: ['$request.header.Authorization'],
        jwtIssuer: props.jwt.issuer,
        jwtAudience: [...props.jwt.audience],
      });
      this.authorizer = apigw.HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'RouteAuthorizer', {
        authorizerId: this.authorizerResource.authorizerId,
        authorizerType: apigw.HttpAuthorizerType.JWT,
      });
    }
  }

  /** `https://<id>.execute-api.<region>.amazonaws.com` (the `$default` stage serves at the root). */
  public get url(): string {
    return this.api.apiEndpoint;
  }
}
