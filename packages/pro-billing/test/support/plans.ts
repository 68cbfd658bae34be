import { definePlans } from '../../src/index.js';

/** The plans the suites use: free (2 seats, 100 calls, hard), pro (flat + per seat, calls with overage), team. */
export const PLANS = definePlans({
  plans: {
    free: { currency: 'usd', features: { seats: 2, projects: 1, api_calls: { included: 100 }, sso: false } },
    pro: {
      name: 'Pro',
      currency: 'usd',
      trialDays: 14,
      prices: [{ kind: 'flat', amount: 2900 }, { kind: 'per_seat', unitAmount: 500, includedSeats: 3 }],
      features: { seats: 10, projects: 10, api_calls: { included: 10_000, overage: '0.1' }, sso: false },
    },
    team: {
      currency: 'usd',
      prices: [{ kind: 'flat', amount: 9900 }, { kind: 'metered', meter: 'exports', tiers: [{ upTo: 10, unitAmount: 0 }, { upTo: 100, unitAmount: 25 }, { upTo: 'inf', unitAmount: '12.5', flatAmount: 100 }] }],
      features: { seats: 50, projects: 10, api_calls: { included: 100_000, overage: '0.05' }, sso: true },
    },
  },
  defaultPlan: 'free',
  graceSeconds: 3600,
});
