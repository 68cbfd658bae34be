import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { AUTH_TRIGGER_ENV } from '@framework/core/names';
import { AuthNotConfiguredError } from '../errors.js';
import { cognitoClientNames, type ClientNameLookup } from './client-names.js';
import { parseScopeRules, type ScopeRules } from './scope-rules.js';
import { accessTokenScopeChanges } from './token-scopes.js';
import { accessTokenTenantClaims } from './tenant-claim.js';

export * from './scope-rules.js';
export * from './token-scopes.js';
export * from './tenant-claim.js';
export * from './client-names.js';

/** Options of `createPreTokenGenerationHandler`. */
export interface PreTokenGenerationOptions {
  readonly rules: ScopeRules;
  /** The resource server's identifier (the prefix of custom scopes in tokens). */
  readonly resourceServer: string;
  /** @default - Cognito's DescribeUserPoolClient, cached per client */
  readonly clientName?: ClientNameLookup;
}

/**
 * The Cognito pre-token-generation trigger (event version 2, access token customization): the access token gets
 * exactly the scopes of the user's roles (their groups, `groupConfiguration.groupsToOverride`) that the app client
 * signing in may request, prefixed with the resource server as Cognito writes custom scopes, and the user's tenant as
 * the claim `custom:tenant_id` when they have one (`accessTokenTenantClaims`). Other scopes (`openid`,
 * `aws.cognito.signin.user.admin`, other resource servers) and every other claim are left as Cognito made them; what
 * another part of the response set already (other claims to add, the ID token's changes) is kept.
 *
 * A config without roles leaves the scopes alone (the client's, as Cognito issues them: a rule of no roles would take
 * every scope away) and never asks Cognito for the client's name: the trigger then only adds the tenant.
 */
export function createPreTokenGenerationHandler(options: PreTokenGenerationOptions) {
  const clientName = options.clientName ?? cognitoClientNames();
  const hasRoles = Object.keys(options.rules.roles).length > 0;
  return async (event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> => {
    const changes = hasRoles
      ? accessTokenScopeChanges({
          rules: options.rules,
          resourceServer: options.resourceServer,
          groups: event.request.groupConfiguration?.groupsToOverride ?? [],
          requestedScopes: event.request.scopes ?? [],
          clientName: await clientName(event.userPoolId, event.callerContext.clientId),
        })
      : undefined;
    const tenant = accessTokenTenantClaims(event.request.userAttributes);
    const hasTenant = Object.keys(tenant).length > 0;
    // Nothing to change: the response goes back as Cognito sent it.
    if (!changes && !hasTenant) return event;
    const details = event.response.claimsAndScopeOverrideDetails ?? {};
    const access = details.accessTokenGeneration;
    event.response.claimsAndScopeOverrideDetails = {
      ...details,
      accessTokenGeneration: {
        ...access,
        // The user's attribute is the truth about their tenant: it wins over a value another part put there.
        ...(hasTenant ? { claimsToAddOrOverride: { ...access?.claimsToAddOrOverride, ...tenant } } : {}),
        ...(changes ? { scopesToAdd: changes.scopesToAdd, scopesToSuppress: changes.scopesToSuppress } : {}),
      },
    };
    return event;
  };
}

let fromEnvironment: ReturnType<typeof createPreTokenGenerationHandler> | undefined;

/** The deployed trigger: its rules and resource server from the variables infra sets (read once per container). */
export async function main(event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> {
  if (!fromEnvironment) {
    const resourceServer = process.env[AUTH_TRIGGER_ENV.resourceServer];
    if (!resourceServer) throw new AuthNotConfiguredError(`${AUTH_TRIGGER_ENV.resourceServer} is not set on the pre-token-generation trigger`);
    fromEnvironment = createPreTokenGenerationHandler({ rules: parseScopeRules(process.env[AUTH_TRIGGER_ENV.scopeRules], AUTH_TRIGGER_ENV.scopeRules), resourceServer });
  }
  return fromEnvironment(event);
}
