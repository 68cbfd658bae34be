import { ENV } from '@framework/core/names';
import { BillingError } from '../errors.js';
import type { BillingPlans } from '../model.js';
import { definePlans } from './define-plans.js';

/**
 * The app's plans as `defineApp` checked them from `billing` of `fw.config.ts`: `fw dev` and the deployed stack give
 * them to every function as JSON in `FW_BILLING_PLANS` (core's `ENV.billingPlans`), so a function bundle never loads
 * `fw.config.ts` or the config codecs. One source: the config; `createBilling()` without `plans` reads them here.
 */
export function appPlans(env: Readonly<Record<string, string | undefined>> = process.env): BillingPlans {
  const raw = env[ENV.billingPlans];
  if (raw === undefined || raw === '') {
    throw new BillingError(
      'FW_ERR_BILLING_NO_PLANS',
      `${ENV.billingPlans} is not set, so this process has no plans: declare \`billing\` in fw.config.ts (fw dev and the deployed stack then give the plans to every function), or outside a function pass createBilling({ plans: app.billing }).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new BillingError('FW_ERR_BILLING_NO_PLANS', `${ENV.billingPlans} is not JSON (${(error as Error).message}): it is written by fw dev and the stack from fw.config.ts; do not set it by hand.`, { cause: error });
  }
  return definePlans(parsed as BillingPlans);
}
