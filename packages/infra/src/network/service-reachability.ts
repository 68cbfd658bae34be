import type { FunctionNeeds } from '../bundling/bundle-usage.js';
import { referencesAny, type FunctionReferences } from '../bundling/bundle-references.js';

/** Services the VPC always reaches through its free gateway endpoints. */
export const GATEWAY_SERVICES: readonly string[] = ['s3', 'dynamodb'];

/**
 * AWS SDK clients a project file may import, by the PrivateLink service they call (`com.amazonaws.<region>.<name>`).
 * A client missing here has no endpoint the framework knows: a function in an isolated subnet that imports it fails
 * synth (`FW_ERR_INFRA_UNREACHABLE_SERVICE`) instead of timing out after deploy.
 */
export const SDK_CLIENT_SERVICES: Readonly<Record<string, string>> = {
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/s3-request-presigner': 's3',
  '@aws-sdk/s3-presigned-post': 's3',
  '@aws-sdk/lib-storage': 's3',
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-sqs': 'sqs',
  '@aws-sdk/client-lambda': 'lambda',
  '@aws-sdk/client-secrets-manager': 'secretsmanager',
  '@aws-sdk/client-scheduler': 'scheduler',
  '@aws-sdk/client-eventbridge': 'events',
  '@aws-sdk/client-sns': 'sns',
  '@aws-sdk/client-ses': 'email',
  '@aws-sdk/client-sesv2': 'email',
  '@aws-sdk/client-ssm': 'ssm',
  '@aws-sdk/client-kms': 'kms',
  '@aws-sdk/client-sts': 'sts',
  '@aws-sdk/client-sfn': 'states',
  '@aws-sdk/client-kinesis': 'kinesis-streams',
  '@aws-sdk/client-cloudwatch': 'monitoring',
  '@aws-sdk/client-cloudwatch-logs': 'logs',
  '@aws-sdk/client-cognito-identity-provider': 'cognito-idp',
  '@aws-sdk/client-bedrock-runtime': 'bedrock-runtime',
};

/** An AWS service one function calls, and why (for error messages). */
export interface ServiceUse {
  /** The PrivateLink service name (`sqs`), or the SDK package when the framework knows no endpoint for it. */
  readonly service: string;
  /** Whether the framework can add an endpoint for it (false: only a NAT gateway reaches it). */
  readonly endpoint: boolean;
  readonly reason: string;
  /** Why no endpoint serves it, when the service has one that does not serve this app. @default - the framework knows none */
  readonly noEndpointBecause?: string;
}

/** What decides whether a service's VPC endpoint serves this app. */
export interface EndpointLimits {
  /**
   * The app's user pool has a domain (an OAuth client needs one): Cognito's VPC endpoint then serves none of its
   * requests, admin calls included ("User pools with a domain are incompatible with AWS PrivateLink"), so only a NAT
   * gateway reaches it from an isolated subnet. @default false
   */
  readonly userPoolHasDomain?: boolean;
}

const COGNITO_WITH_DOMAIN = "Cognito's VPC endpoint serves no request for a user pool with a domain, which this app's OAuth clients give its pool";

/** The AWS services one function calls: from what the framework's clients do for it, and SDK clients it imports. */
export function servicesOf(needs: FunctionNeeds, references: FunctionReferences, projectPackages: ReadonlySet<string>, readsDatabaseSecret: boolean, limits: EndpointLimits = {}): ServiceUse[] {
  const uses = new Map<string, ServiceUse>();
  const add = (service: string, reason: string, endpoint = true) => {
    if (uses.has(service)) return;
    if (service === 'cognito-idp' && limits.userPoolHasDomain) uses.set(service, { service, endpoint: false, reason, noEndpointBecause: COGNITO_WITH_DOMAIN });
    else uses.set(service, { service, endpoint, reason });
  };
  const ids = (list: FunctionReferences['queues']) => (list === 'all' ? 'any' : list.map((id) => `"${id}"`).join(', '));
  if (readsDatabaseSecret) add('secretsmanager', 'reads the database credentials');
  if (referencesAny(references.queues)) add('sqs', `sends to queue ${ids(references.queues)}`);
  if (referencesAny(references.functions)) add('lambda', `invokes function ${ids(references.functions)}`);
  if (referencesAny(references.buckets)) add('s3', `uses bucket ${ids(references.buckets)}`);
  if (needs.idempotency) add('dynamodb', 'uses the idempotency table');
  // machineToken also calls the pool's token endpoint (its domain), which no VPC endpoint serves: a NAT gateway does.
  if (references.authAdmin) add('cognito-idp', 'calls service.auth');
  if (references.apiKeys) add('secretsmanager', 'reads the API-key pepper (createApiKeys)');
  if (references.bedrockModels) add('bedrock-runtime', 'calls a Bedrock model (@framework-pro/ai)');
  if (references.vault) add('kms', 'encrypts with the integrations vault key (createOAuthConnections, createWebhooks)');
  for (const pkg of [...projectPackages].sort()) {
    if (!pkg.startsWith('@aws-sdk/client-') && !(pkg in SDK_CLIENT_SERVICES)) continue;
    const service = SDK_CLIENT_SERVICES[pkg];
    if (service) add(service, `imports ${pkg}`);
    else add(pkg, `imports ${pkg}`, false);
  }
  return [...uses.values()];
}
