import { Names, Stack, Validations, type CfnElement } from 'aws-cdk-lib/core';
import type { IConstruct } from 'constructs';

/** One accepted AwsSolutions finding: where it is accepted and why. */
export interface NagAcknowledgement {
  /** Rule id, optionally narrowed to one finding: `AwsSolutions-IAM5[Action::s3:*]`. */
  readonly id: string;
  /** `stack`: every resource of the stack and its route shards; else the resource it is attached to. */
  readonly scope: 'stack' | 'resource';
  /** What it is attached to (for the README table). */
  readonly on: string;
  readonly reason: string;
}

/**
 * Every AwsSolutions finding the framework accepts, with its reason. Everything else is fixed in the constructs
 * (TLS-only queues and buckets, encrypted storage, API access logs, password policy, endpoint security groups).
 * README.md's suppression table is this list; a test keeps them in step.
 */
export const NAG_ACKNOWLEDGEMENTS = {
  lambdaRuntime: { id: 'AwsSolutions-L1', scope: 'stack', on: 'every function', reason: 'The runtime is a preset setting (functions.runtime, Node.js 22 by default) so that it changes with a deliberate config change and a test run, not when a newer runtime ships.' },
  basicExecutionRole: { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', scope: 'stack', on: 'every function role', reason: 'Grants only CloudWatch Logs writes, which every function needs; maintained by AWS as the logging permissions evolve.' },
  vpcExecutionRole: { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]', scope: 'stack', on: 'roles of functions in the VPC', reason: 'Grants the network-interface actions Lambda needs to place a function in the VPC (they do not support resource scoping) plus CloudWatch Logs writes.' },
  bucketGrants: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'policies of functions that use storage', reason: 'Bucket.grantRead (functions that only read) or grantReadWrite: object-level actions on objects of the buckets the function names only (`<bucket arn>/*`); presigned uploads and downloads are signed with this role.' },
  schedulerTarget: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'the scheduler role', reason: 'Invoke permission on the cron functions and their versions (`<function arn>:*`), nothing else.' },
  tracing: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'roles of traced functions (preset functions.tracing)', reason: 'xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions (`Resource::*` only).' },
  invokeGrants: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'policies of functions that invoke standalone functions', reason: 'Function.grantInvoke covers the function and its versions and aliases (`<function arn>:*`) of the standalone functions the caller names only.' },
  migrationsProvider: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'the custom-resource provider of database migrations', reason: 'The provider framework may invoke the migration function and its versions (`<function arn>:*`), nothing else.' },
  authTriggerClients: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'the pre token generation trigger\'s role', reason: 'cognito-idp:DescribeUserPoolClient (read-only) on the user pools of the account and region: the pool\'s own ARN would make a CloudFormation cycle (the pool references the trigger).' },
  publicWebSocketRoute: { id: 'AwsSolutions-APIG4', scope: 'resource', on: 'WebSocket API routes', reason: 'API Gateway runs a WebSocket authorizer on $connect only; messages travel on a connection admitted there, and the handlers check scopes (wsHandler) on every message.' },
  wsManageConnections: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'policies of functions that send to WebSocket connections', reason: 'execute-api:ManageConnections on the app\'s WebSocket API stage only; connection ids are created at run time, so the connection is a wildcard (`<api>/<stage>/*/@connections/*`).' },
  publicRoute: { id: 'AwsSolutions-APIG4', scope: 'resource', on: 'routes whose handler declares no scopes', reason: 'A handler declared without scopes is public by design (sign-up, health checks, webhooks with their own signature).' },
  apiKeyRoute: { id: 'AwsSolutions-APIG4', scope: 'resource', on: "routes that accept API keys (auth: [..., 'apiKey'])", reason: 'The function authenticates every caller itself (the API key against its hash, a bearer token against the pool\'s keys) and checks the scopes: the JWT authorizer would refuse every API key.' },
  noFlowLogs: { id: 'AwsSolutions-VPC7', scope: 'resource', on: 'the VPC', reason: 'Flow logs are billed per GB ingested; the VPC holds only the database, cache and functions. Add them with `stack.network.vpc.addFlowLog()` when needed.' },
  secretRotation: { id: 'AwsSolutions-SMG4', scope: 'resource', on: 'database credentials', reason: 'Rotation needs a rotation function with network access to the database; not provided yet. The secret is generated, never written in config.' },
  pepperRotation: { id: 'AwsSolutions-SMG4', scope: 'resource', on: 'the API-key pepper', reason: 'Every stored API key is a hash keyed with the pepper: a rotated pepper would invalidate all keys at once. The secret is generated by CloudFormation, read only by the functions that create API keys.' },
  databaseMultiAz: { id: 'AwsSolutions-RDS3', scope: 'resource', on: 'databases of presets without multiAz', reason: 'Set by the preset (databases.multiAz): off for free/nano/micro to keep small stages cheap; on for medium/large.' },
  databaseDeletionProtection: { id: 'AwsSolutions-RDS10', scope: 'resource', on: 'databases of presets without deletion protection', reason: 'Set by the preset (databases.deletionProtection): development stages are meant to be destroyed.' },
  databaseDefaultPort: { id: 'AwsSolutions-RDS11', scope: 'resource', on: 'databases', reason: 'The server is in private subnets admitting only the functions\' security group; a non-default port adds no protection there.' },
  databaseIamAuth: { id: 'AwsSolutions-RDS6', scope: 'resource', on: 'databases', reason: 'Functions authenticate with the generated Secrets Manager credentials; IAM database tokens would tie connection setup to a 15-minute token lifecycle.' },
  bucketAccessLogs: { id: 'AwsSolutions-S1', scope: 'resource', on: 'buckets', reason: 'Server access logs need a second bucket per stage; object access is already visible in CloudTrail data events when enabled by the account.' },
  cdnGeo: { id: 'AwsSolutions-CFR1', scope: 'resource', on: 'CDN distributions', reason: 'Content is served worldwide; no geo restriction is implied by the storage intent.' },
  cdnWaf: { id: 'AwsSolutions-CFR2', scope: 'resource', on: 'CDN distributions', reason: 'The distribution serves objects of a private bucket read-only; a WAF web ACL is an account-level choice with its own cost.' },
  cdnLogs: { id: 'AwsSolutions-CFR3', scope: 'resource', on: 'CDN distributions', reason: 'Standard logs need a log bucket with ACLs enabled; left to the account.' },
  cdnTls: { id: 'AwsSolutions-CFR4', scope: 'resource', on: 'CDN distributions', reason: 'The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum TLS version; custom domains are not part of the storage intent.' },
  mfaSmsRole: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'user pools whose MFA factors include sms', reason: 'The role CDK makes for Cognito to send SMS codes may sns:Publish to `*`: the codes go to phone numbers, not to a topic that could be named.' },
  mfaOptional: { id: 'AwsSolutions-COG2', scope: 'resource', on: 'user pools whose MFA is not required', reason: 'MFA is `security.mfa` (or the auth intent\'s `mfa`): optional with TOTP by default.' },
  cognitoPlus: { id: 'AwsSolutions-COG8', scope: 'resource', on: 'user pools', reason: 'The Plus feature plan (threat protection) is billed per monthly active user; the Essentials plan is the default.' },
  tablePitr: { id: 'AwsSolutions-DDB3', scope: 'resource', on: 'the idempotency table', reason: 'Records expire within the idempotency TTL (24 hours by default); there is nothing worth restoring.' },
  wsRegistryPitr: { id: 'AwsSolutions-DDB3', scope: 'resource', on: 'the WebSocket connection registry table', reason: 'It records open connections, which API Gateway closes within 2 hours; after a restore they would all be gone anyway.' },
  wsRegistryIndex: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'policies of functions that use the WebSocket connection registry', reason: 'Table.grantReadWriteData on the registry table includes its indexes (`<table arn>/index/*`): the lookups by user and by topic query the `members` index.' },
  notifyPushEndpoints: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'the notify dispatcher\'s role', reason: 'sns:Publish on the endpoints of the named platform applications only (`<application>/*` as endpoint ARNs): endpoints are created at run time, one per device.' },
  bedrockModels: { id: 'AwsSolutions-IAM5', scope: 'resource', on: 'policies of functions that call Bedrock models (`@framework-pro/ai`)', reason: 'A cross-region inference profile routes to its model in several regions (`foundation-model/<id>` in region `*`); a model id computed at run time grants every model (`foundation-model/*`, `inference-profile/*`), as fw dev allows. A literal model id gets that model only.' },
  noDeadLetterQueue: { id: 'AwsSolutions-SQS3', scope: 'resource', on: 'queues declared with deadLetterQueue: false, and dead-letter queues', reason: 'The user opted out of a dead-letter queue in the queue intent; a dead-letter queue needs none of its own.' },
} as const satisfies Record<string, NagAcknowledgement>;

export type NagAcknowledgementKey = keyof typeof NAG_ACKNOWLEDGEMENTS;

/** Acknowledges one accepted finding on a construct (and everything below it). */
export function acknowledgeNag(scope: IConstruct, key: NagAcknowledgementKey): void {
  const ack = NAG_ACKNOWLEDGEMENTS[key];
  Validations.of(scope).acknowledge({ id: ack.id, reason: ack.reason });
}

/**
 * Acknowledges granular findings (`AwsSolutions-IAM5[Action::s3:List*]`) of one accepted kind: cdk-nag reports each
 * wildcard separately, so each is named; nothing else of the rule is hidden.
 */
export function acknowledgeNagFindings(scope: IConstruct, key: NagAcknowledgementKey, findings: readonly string[]): void {
  const ack = NAG_ACKNOWLEDGEMENTS[key];
  for (const finding of findings) Validations.of(scope).acknowledge({ id: `${ack.id}[${finding}]`, reason: ack.reason });
}

/**
 * How cdk-nag prints an attribute of a resource inside a policy of `scope`'s stack: `<Logical.Arn>` in the same
 * stack, `<referencetoUniqueIdArn>` (the nested stack's parameter) when the resource lives in a parent stack.
 */
export function nagResourceRef(scope: IConstruct, target: CfnElement, attribute = 'Arn'): string {
  if (Stack.of(scope) === target.stack) return `<${target.stack.resolve(target.logicalId)}.${attribute}>`;
  return `<referenceto${Names.nodeUniqueId(target.node)}${attribute}>`;
}

/** Acknowledges the stack-wide findings (every resource of the stack and its nested stacks). */
export function applyNagSuppressions(stack: Stack): void {
  for (const key of Object.keys(NAG_ACKNOWLEDGEMENTS) as NagAcknowledgementKey[]) {
    if (NAG_ACKNOWLEDGEMENTS[key].scope === 'stack') acknowledgeNag(stack, key);
  }
}
