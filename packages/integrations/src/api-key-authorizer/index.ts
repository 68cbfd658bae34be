// The database client registers `service.db`, where the key store reads `fw_api_keys`.
import '@framework/data';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { verifyAccessToken } from '@framework/auth';
import { ENV } from '@framework/core/names';
import { createApiKeyVerifier } from '../api-keys/api-keys.js';
import { createApiKeyAuthorizer, type ApiKeyAuthorizerResult } from './api-key-authorizer.js';

export * from './api-key-authorizer.js';

let fromEnvironment: ReturnType<typeof createApiKeyAuthorizer> | undefined;

/**
 * The deployed authorizer (`@framework/infra` bundles this module into its own function): keys from the app's
 * database with the pepper secret (`FW_API_KEYS_PEPPER_SECRET_ARN`) and the stage's key kind, tokens with the pool of
 * the auth variables when the app has one. One verifier per container, so its cache and the pool's keys are kept
 * across invocations.
 */
export async function main(event: APIGatewayRequestAuthorizerEventV2): Promise<ApiKeyAuthorizerResult> {
  fromEnvironment ??= createApiKeyAuthorizer({
    apiKeys: createApiKeyVerifier(),
    ...(process.env[ENV.authIssuer] ? { verifyToken: (token: string) => verifyAccessToken(token) } : {}),
  });
  return fromEnvironment(event);
}
