import { expect } from 'chai';
import { definePlans, type BillingPlans } from '../../src/index.js';
import { PLANS } from '../support/plans.js';

function problemsOf(input: unknown): string {
  try {
    definePlans(input as BillingPlans);
  } catch (error) {
    expect(error).to.include({ code: 'FW_ERR_BILLING_INVALID_PLANS', name: 'BillingError' });
    return (error as Error).message;
  }
  throw new Error('expected the plans to be refused');
}

describe('definePlans', () => {
  it('accepts flat, per-seat and tiered metered prices, limits and metered allowances', () => {
    expect(definePlans(PLANS)).to.equal(PLANS);
  });

  it('refuses plans that cannot work, listing every problem with its path and what was expected', () => {
    const message = problemsOf({
      plans: {
        free: { currency: 'USD', features: { seats: -1, api_calls: { included: 10, overage: 0.001 } } },
        pro: { currency: 'usd', trialDays: 1.5, prices: [{ kind: 'flat', amount: 19.99 }, { kind: 'metered', meter: 'calls', tiers: [{ upTo: 10, unitAmount: 1 }, { upTo: 5, unitAmount: '0.1234567890123' }] }] },
      },
      defaultPlan: 'basic',
    });
    expect(message).to.contain('plans.free.currency').and.contain("lower-case ISO 4217 code such as 'usd'");
    expect(message).to.contain('plans.free.features.seats');
    expect(message).to.contain('plans.free.features.api_calls.overage').and.contain("decimal string such as '0.1'");
    expect(message).to.contain('plans.pro.trialDays');
    expect(message).to.contain('plans.pro.prices.0.amount: expected a whole number of minor units (cents)');
    expect(message).to.contain("plans.pro.prices.1.tiers.1.upTo: expected 'inf' on the last tier");
    expect(message).to.contain('plans.pro.prices.1.tiers.1.unitAmount').and.contain('at most 12 decimals');
    expect(message).to.contain('defaultPlan: "basic" is not a declared plan (plans: free, pro)');
  });

  it('refuses no plans, mixed currencies and a malformed declaration', () => {
    expect(problemsOf({ plans: {}, defaultPlan: 'free' })).to.contain('declare at least one plan');
    expect(problemsOf({ plans: { a: { currency: 'usd' }, b: { currency: 'eur' } }, defaultPlan: 'a' })).to.contain('one currency');
    expect(problemsOf(null)).to.contain('defaultPlan');
  });
});
