import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AuthMethod } from '@framework/core/names';
import { RuntimeError } from '../errors.js';
import type { AuthInfo } from './auth.js';

type AuthorizeWithMethods = (
  event: APIGatewayProxyEventV2,
  headers: Readonly<Record<string, string | undefined>>,
  methods: readonly AuthMethod[],
  requiredScopes: readonly string[],
) => Promise<AuthInfo | undefined>;

let installed: AuthorizeWithMethods | undefined;

/**
 * Installed by `api-key-auth.ts` when it is loaded (any verifier registration loads it), so a route bundle without API
 * keys does not carry that code: `handler()` reaches it through this hook only.
 */
export function installAuthMethods(authorize: AuthorizeWithMethods): void {
  installed = authorize;
}

/** The check of a route that accepts API keys; throws when nothing registered a verifier in this function. */
export function authMethods(): AuthorizeWithMethods {
  if (!installed) {
    // Short on purpose: this module is in every route bundle (the README's error table has the fix).
    throw new RuntimeError('FW_ERR_API_KEY_VERIFIER_MISSING', 'No API key verifier: call createApiKeys()');
  }
  return installed;
}
