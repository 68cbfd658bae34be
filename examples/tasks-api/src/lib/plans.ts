import { definePlans } from '@framework-pro/billing';

/**
 * The app's plans, cheapest first (the upgrade path a 402 names). Free: two members, 1000 API calls a month. Pro:
 * billed per member (12.00 a seat), ten members, API calls past 1000 at a tenth of a cent. Prices in cents.
 */
export const plans = definePlans({
  plans: {
    free: { name: 'Free', currency: 'usd', features: { seats: 2, api_calls: { included: 1000 } } },
    pro: {
      name: 'Pro',
      currency: 'usd',
      prices: [{ kind: 'per_seat', unitAmount: 1200 }],
      features: { seats: 10, api_calls: { included: 1000, overage: '0.1' } },
    },
  },
  defaultPlan: 'free',
  // Late usage (a retried request's track) still counts in its period for an hour after the period ends.
  graceSeconds: 3600,
});
