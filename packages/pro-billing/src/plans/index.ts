export { BILLING_NAME, declaredFeatures, declaredMeters, DEFAULT_GRACE_SECONDS, definePlans, isMetered, meterTiers } from './define-plans.js';
export { divideRounded, formatUnitAmount, scaledUnitAmount, unitAmountProblem, UNIT_AMOUNT_DECIMALS } from './money.js';
export { graduatedAmount, proratedAmount } from './pricing.js';
export { appPlans } from './app-plans.js';
