import { TENANT_CLAIM, TENANT_ID_PATTERN } from '@framework/core/names';
import { TenancyConfigError } from '../errors.js';

/** Where a request's tenant can come from. */
export type TenantSource = 'claim' | 'header' | 'subdomain' | 'path';

const SOURCES: readonly TenantSource[] = ['claim', 'header', 'subdomain', 'path'];

/** How a request's tenant is found (`resolveTenant`, `tenantMiddleware`). */
export interface TenantResolutionOptions {
  /**
   * The sources to read, in order: the first that gives a value names the tenant. A token claim, when `claim` is
   * listed and the token carries it, is the caller's tenant whatever the order: another source naming a different
   * tenant is a 403 `TENANT_NOT_CALLERS`.
   * @default ['claim']
   */
  readonly from?: readonly TenantSource[];
  /**
   * The token claim holding the tenant id (Cognito custom attributes arrive as `custom:<name>`).
   * @default 'custom:tenant_id'
   */
  readonly claim?: string;
  /**
   * The header naming the tenant (any case).
   * @default 'x-tenant-id'
   */
  readonly header?: string;
  /**
   * The domain under which each tenant has a subdomain: with `'example.com'`, `acme.example.com` is tenant `acme`.
   * Required when `from` lists `'subdomain'`.
   * @default - none
   */
  readonly subdomainOf?: string;
  /**
   * The path parameter naming the tenant: routes under `src/routes/t/[tenant]/...` serve `/t/acme/...`.
   * @default 'tenant'
   */
  readonly pathParam?: string;
  /**
   * What a tenant id must look like; anything else is a 400 `INVALID_TENANT_ID` (it becomes part of keys, prefixes
   * and SQL settings, so it is checked before anything uses it).
   * @default /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
   */
  readonly idPattern?: RegExp;
  /**
   * Machine tokens (client credentials, no user) have no tenant claim: with `true` they act for the tenant the
   * request names (a back office, a service of the vendor). With `false` they are refused like user tokens. API keys
   * never choose: a key acts for the tenant it was issued for (`@framework/integrations`' `issue({ tenant })` puts it
   * in the `custom:tenant_id` claim; with another `claim` configured, a key's requests have no tenant claim and are
   * refused when they name a tenant).
   * @default true
   */
  readonly machineTokensChooseTenant?: boolean;
}

/** Options with every default filled in, validated once. */
export interface ResolvedTenantResolutionOptions {
  readonly from: readonly TenantSource[];
  readonly claim: string;
  readonly header: string;
  readonly subdomainOf: string | undefined;
  readonly pathParam: string;
  readonly idPattern: RegExp;
  readonly machineTokensChooseTenant: boolean;
}

/** The claim `fw dev`'s issuer and the Cognito pool's trigger put a user's tenant in (core's `TENANT_CLAIM`). */
export const DEFAULT_TENANT_CLAIM = TENANT_CLAIM;
export const DEFAULT_TENANT_HEADER = 'x-tenant-id';
/** Core's `TENANT_ID_PATTERN`: the rule a user's tenant follows wherever it is set. */
export const DEFAULT_TENANT_ID_PATTERN = TENANT_ID_PATTERN;

function invalid(message: string): never {
  throw new TenancyConfigError('FW_ERR_TENANCY_INVALID_OPTIONS', message);
}

/** Fills the defaults and refuses options that cannot work (at creation, never per request). */
export function resolveTenantResolutionOptions(options: TenantResolutionOptions = {}): ResolvedTenantResolutionOptions {
  const from = options.from ?? ['claim'];
  if (!Array.isArray(from) || from.length === 0) invalid('tenancy option "from" must list at least one source: "claim", "header", "subdomain" or "path"');
  for (const source of from) {
    if (!SOURCES.includes(source)) invalid(`tenancy option "from" lists ${JSON.stringify(source)}; use "claim", "header", "subdomain" or "path"`);
  }
  if (new Set(from).size !== from.length) invalid('tenancy option "from" lists a source twice; list each once, in the order to try them');
  const subdomainOf = options.subdomainOf?.trim().toLowerCase().replace(/^\.+/, '');
  if (from.includes('subdomain') && !subdomainOf) invalid('tenancy option "from" lists "subdomain" but "subdomainOf" is not set; set it to the domain tenants are subdomains of, e.g. "example.com"');
  const claim = options.claim ?? DEFAULT_TENANT_CLAIM;
  const header = (options.header ?? DEFAULT_TENANT_HEADER).toLowerCase();
  const pathParam = options.pathParam ?? 'tenant';
  for (const [name, value] of [['claim', claim], ['header', header], ['pathParam', pathParam]] as const) {
    if (typeof value !== 'string' || value.trim() === '') invalid(`tenancy option "${name}" must be a non-empty string`);
  }
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(header)) invalid(`tenancy option "header" is ${JSON.stringify(options.header)}, not a valid header name; use letters, digits and "-", e.g. "x-tenant-id"`);
  const idPattern = options.idPattern ?? DEFAULT_TENANT_ID_PATTERN;
  if (!(idPattern instanceof RegExp)) invalid('tenancy option "idPattern" must be a RegExp');
  return {
    from: Object.freeze([...from]),
    claim,
    header,
    subdomainOf,
    pathParam,
    idPattern,
    machineTokensChooseTenant: options.machineTokensChooseTenant ?? true,
  };
}
