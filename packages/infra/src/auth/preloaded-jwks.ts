import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib/core';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { EnvironmentSettings } from '@framework/core';
import { Construct } from 'constructs';
import { JWKS_FETCH_HANDLER_CODE } from './jwks-fetch-handler.js';

/** Props of `PreloadedJwks`. */
export interface PreloadedJwksProps {
  /** `https://cognito-idp.<region>.amazonaws.com/<pool id>/.well-known/jwks.json`: known only once the pool exists. */
  readonly jwksUri: string;
  /** Runtime, architecture and log retention of the deploy-time function, from the stage's preset. */
  readonly settings: EnvironmentSettings;
}

/**
 * The user pool's JWKS, fetched at deploy by a custom resource once the pool exists (its id, hence its JWKS URL, is
 * not known before): `jwks` is the JSON the functions that verify tokens get as `FW_AUTH_JWKS`, so their verifier
 * starts with the keys cached and a cold start makes no network call for them.
 *
 * A plain custom resource (one small function that answers CloudFormation itself) rather than the provider framework:
 * it needs no permission beyond its logs. It runs again only when the pool (its JWKS URL) changes; keys Cognito adds
 * later are fetched by the verifier the first time a token names one. A JWKS that cannot be fetched at deploy does not
 * fail the deploy: `jwks` is then empty and the functions fetch the keys on their first token, as without preloading.
 */
export class PreloadedJwks extends Construct {
  public readonly function: lambda.Function;
  public readonly resource: CustomResource;
  /** The JWKS as JSON (`{ "keys": [...] }`, only the public fields), or empty when the deploy could not fetch it. */
  public readonly jwks: string;

  constructor(scope: Construct, id: string, props: PreloadedJwksProps) {
    super(scope, id);
    const { settings } = props;
    this.function = new lambda.Function(this, 'Fetch', {
      description: 'Fetches the user pool\'s JWKS at deploy, for the functions that verify tokens (FW_AUTH_JWKS)',
      runtime: settings.functions.runtime === 'nodejs20.x' ? lambda.Runtime.NODEJS_20_X : lambda.Runtime.NODEJS_22_X,
      architecture: settings.functions.architecture === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64,
      handler: 'index.handler',
      code: lambda.Code.fromInline(JWKS_FETCH_HANDLER_CODE),
      memorySize: 128,
      timeout: Duration.minutes(2),
      logGroup: new logs.LogGroup(this, 'Logs', { retention: settings.logs.retentionDays as logs.RetentionDays, removalPolicy: RemovalPolicy.DESTROY }),
    });
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: this.function.functionArn,
      resourceType: 'Custom::FrameworkAuthJwks',
      properties: { JwksUri: props.jwksUri },
    });
    this.jwks = this.resource.getAttString('Jwks');
  }
}
