import { expect } from 'chai';
import { defineApp, ENV, type BillingConfig } from '@framework/core';
import { TempProject, validOptions } from '../../../core/test/helpers/temp-project.js';
import { appPlans, createBilling } from '../../src/index.js';

const billing: BillingConfig = {
  plans: {
    free: { currency: 'usd', features: { seats: 2, api_calls: { included: 1000 } } },
    pro: { currency: 'usd', prices: [{ kind: 'per_seat', unitAmount: 1200 }], features: { seats: 10, api_calls: { included: 1000, overage: '0.1' } } },
  },
  defaultPlan: 'free',
};

describe('the app\'s plans (billing of fw.config.ts, as functions receive them)', () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject(['src/routes/tasks/get.ts']);
  });
  afterEach(() => project.remove());

  it('reads the plans defineApp gave every function, with the grace window filled in', () => {
    const app = defineApp(validOptions(project.rootDir, { billing }));
    const variable = app.environment[ENV.billingPlans] as { kind: 'static'; value: string };
    const plans = appPlans({ [ENV.billingPlans]: variable.value });
    expect(plans).to.deep.equal({ ...billing, graceSeconds: 3600 });
    expect(plans).to.deep.equal(app.billing);
  });

  it('createBilling() without plans bills with the app\'s', () => {
    const app = defineApp(validOptions(project.rootDir, { billing }));
    const previous = process.env[ENV.billingPlans];
    process.env[ENV.billingPlans] = (app.environment[ENV.billingPlans] as { value: string }).value;
    try {
      expect(createBilling().plans).to.deep.equal(app.billing);
      // Outside a function, the app model's plans.
      expect(createBilling({ plans: app.billing! }).plans).to.deep.equal(app.billing);
    } finally {
      if (previous === undefined) delete process.env[ENV.billingPlans];
      else process.env[ENV.billingPlans] = previous;
    }
  });

  it('says where the plans come from when the variable is missing or not JSON (FW_ERR_BILLING_NO_PLANS)', () => {
    expect(() => appPlans({})).to.throw(/FW_BILLING_PLANS is not set.*declare `billing` in fw\.config\.ts/).with.property('code', 'FW_ERR_BILLING_NO_PLANS');
    expect(() => appPlans({ [ENV.billingPlans]: '{plans' })).to.throw(/FW_BILLING_PLANS is not JSON/).with.property('code', 'FW_ERR_BILLING_NO_PLANS');
    // JSON that is not plans: the usual checks.
    expect(() => appPlans({ [ENV.billingPlans]: '{"plans":{},"defaultPlan":"free"}' })).to.throw(/declare at least one plan/).with.property('code', 'FW_ERR_BILLING_INVALID_PLANS');
  });
});
