import type { HandlerContext, TenantInfo } from '@framework/runtime';
import { TenancyHttpError } from '../errors.js';
import { resolveTenantResolutionOptions, type ResolvedTenantResolutionOptions, type TenantResolutionOptions, type TenantSource } from './tenant-resolution-options.js';

/** A resolved tenant and the source that named it. */
export interface ResolvedTenant extends TenantInfo {
  readonly source: TenantSource;
}

/** The parts of a request resolution reads (an HTTP route's `ctx` has them all). */
export type TenantRequest = Pick<HandlerContext, 'headers' | 'pathParams' | 'auth' | 'rawEvent'>;

function claimOf(request: TenantRequest, claim: string): string | undefined {
  const value = request.auth?.claims[claim];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function subdomainOf(request: TenantRequest, domain: string): string | undefined {
  // The Host header is what the client asked for (behind the gateway, the custom domain); the gateway's own
  // domainName is the fallback for a hand-built event without one.
  const host = (request.headers['host'] ?? request.rawEvent?.requestContext?.domainName ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!host.endsWith(`.${domain}`)) return undefined;
  const label = host.slice(0, -(domain.length + 1));
  return label === '' ? undefined : label;
}

function read(request: TenantRequest, source: TenantSource, options: ResolvedTenantResolutionOptions): string | undefined {
  switch (source) {
    case 'claim':
      return claimOf(request, options.claim);
    case 'header': {
      const value = request.headers[options.header]?.trim();
      return value ? value : undefined;
    }
    case 'subdomain':
      return options.subdomainOf ? subdomainOf(request, options.subdomainOf) : undefined;
    case 'path': {
      const value = request.pathParams[options.pathParam];
      return value ? value : undefined;
    }
  }
}

function describeSource(source: TenantSource, options: ResolvedTenantResolutionOptions): string {
  switch (source) {
    case 'claim':
      return `the token claim "${options.claim}"`;
    case 'header':
      return `the header "${options.header}"`;
    case 'subdomain':
      return `a subdomain of "${options.subdomainOf}"`;
    case 'path':
      return `the path parameter "${options.pathParam}"`;
  }
}

/** How a client can name the tenant, for the message of a 400 `TENANT_REQUIRED`. */
export function tenantSourcesHint(options: ResolvedTenantResolutionOptions): string {
  return options.from.map((source) => describeSource(source, options)).join(', or ');
}

/**
 * The tenant of a request, or `undefined` when no source names one. Throws a 400 `INVALID_TENANT_ID` for an id that
 * fails the pattern, a 400 `TENANT_CONFLICT` when two caller-chosen sources name different tenants, and a 403
 * `TENANT_NOT_CALLERS` when the request names a tenant that is not the caller's (see `TenantResolutionOptions.from`).
 */
export function resolveTenant(request: TenantRequest, options: TenantResolutionOptions | ResolvedTenantResolutionOptions = {}): ResolvedTenant | undefined {
  const resolved = isResolved(options) ? options : resolveTenantResolutionOptions(options);
  let claimed: string | undefined;
  let chosen: ResolvedTenant | undefined;
  for (const source of resolved.from) {
    const id = read(request, source, resolved);
    if (id === undefined) continue;
    if (!resolved.idPattern.test(id)) {
      throw new TenancyHttpError('INVALID_TENANT_ID', `The tenant id from ${describeSource(source, resolved)} is not a valid tenant id; use letters, digits, "-" and "_" (1 to 64 characters)`, { source });
    }
    if (source === 'claim') {
      claimed = id;
      continue;
    }
    if (chosen === undefined) chosen = { id, source };
    else if (chosen.id !== id) {
      throw new TenancyHttpError('TENANT_CONFLICT', `The request names two tenants (${describeSource(chosen.source, resolved)} and ${describeSource(source, resolved)} differ); name one tenant, or the same in both`, { sources: [chosen.source, source] });
    }
  }
  if (claimed !== undefined) {
    // The token's tenant is the caller's; a tenant the caller chose (header, subdomain, path) must be that one.
    if (chosen !== undefined && chosen.id !== claimed) {
      throw new TenancyHttpError('TENANT_NOT_CALLERS', `The request names a tenant (${describeSource(chosen.source, resolved)}) that is not the one of the caller's token; drop it or name the caller's own tenant`, { source: chosen.source });
    }
    return Object.freeze({ id: claimed, source: 'claim' as const });
  }
  if (chosen === undefined) return undefined;
  const auth = request.auth;
  // With claims in use, a signed-in user without a tenant claim belongs to no tenant: naming one is not enough. An API
  // key counts as a machine but is bound to the tenant it was issued for (its claim): it never chooses one.
  if (auth && resolved.from.includes('claim') && auth.method === 'apiKey') {
    throw new TenancyHttpError('TENANT_NOT_CALLERS', `The caller's API key was issued for no tenant (claim "${resolved.claim}"), so it may not act for the tenant named by ${describeSource(chosen.source, resolved)}; issue the key with a tenant (apiKeys.issue({ tenant }))`, { source: chosen.source });
  }
  if (auth && resolved.from.includes('claim') && !(auth.isMachine && resolved.machineTokensChooseTenant)) {
    throw new TenancyHttpError('TENANT_NOT_CALLERS', `The caller's token carries no tenant (claim "${resolved.claim}"), so it may not act for the tenant named by ${describeSource(chosen.source, resolved)}; sign in as a member of that tenant`, { source: chosen.source });
  }
  return Object.freeze(chosen);
}

function isResolved(options: TenantResolutionOptions | ResolvedTenantResolutionOptions): options is ResolvedTenantResolutionOptions {
  return resolvedOptions.has(options as ResolvedTenantResolutionOptions);
}

const resolvedOptions = new WeakSet<ResolvedTenantResolutionOptions>();

/** Options validated once (the middleware does this at creation), so per-request resolution skips the checks. */
export function prepareTenantResolution(options: TenantResolutionOptions = {}): ResolvedTenantResolutionOptions {
  const resolved = Object.freeze(resolveTenantResolutionOptions(options));
  resolvedOptions.add(resolved);
  return resolved;
}
