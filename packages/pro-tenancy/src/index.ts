/**
 * @framework-pro/tenancy: every request knows its tenant. Resolution (`tenantMiddleware`, `ctx.tenant`,
 * `currentTenant()`), row-level security as a floor (`enableRowLevelSecurity`, `tenantTable`, `checkTenancy`); see
 * README.md for what each part guarantees.
 */
import { requireLicense } from '@framework-pro/license';

// Once per cold start (the check keeps its result): never throws, warns locally, logs loudly when deployed.
requireLicense('tenancy');

export * from './errors.js';
export * from './resolution/index.js';
export * from './lifecycle/index.js';
export * from './tiers/index.js';
export * from './rls/index.js';
export * from './propagation/index.js';
export * from './jobs/index.js';
// The runtime carries the tenant (so free packages can read it); re-exported so apps import tenancy from one place.
export { currentTenant, runWithTenant, type TenantInfo } from '@framework/runtime';
