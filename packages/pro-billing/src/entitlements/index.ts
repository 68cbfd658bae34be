export { allows, limitOf, upgradeFor, type EntitlementDecision } from './check-feature.js';
export { calendarMonth, PlanCache, type TenantPlan } from './plan-cache.js';
export { limitError, requireFeatureMiddleware, type FeatureChecker, type RequestedAmount } from './require-feature.js';
