import { expect } from 'chai';
import { ConfigError, defineApp, ENV, type BillingConfig, type ConfigProblem } from '../../src/index.js';
import { TempProject, thrownBy, validOptions } from '../helpers/temp-project.js';

const plans: BillingConfig = {
  plans: {
    free: { currency: 'usd', features: { seats: 2, projects: 1, api_calls: { included: 1000 }, sso: false } },
    pro: {
      name: 'Pro',
      currency: 'usd',
      trialDays: 14,
      prices: [{ kind: 'flat', amount: 2900 }, { kind: 'per_seat', unitAmount: 500, includedSeats: 3 }, { kind: 'metered', meter: 'exports', tiers: [{ upTo: 10, unitAmount: 0 }, { upTo: 'inf', unitAmount: '12.5', flatAmount: 100 }] }],
      features: { seats: 10, projects: 10, api_calls: { included: 10_000, overage: '0.1' } },
    },
  },
  defaultPlan: 'free',
};

describe('billing in defineApp', () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject(['src/routes/tasks/get.ts']);
  });
  afterEach(() => project.remove());

  const problemsOf = (billing: unknown): readonly ConfigProblem[] => {
    const error = thrownBy(() => defineApp(validOptions(project.rootDir, { billing })));
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  };
  const lines = (billing: unknown) => problemsOf(billing).map((p) => `${p.code} ${p.path}: ${p.message}`);

  it('accepts flat, per-seat and graduated metered prices, trial days, limits and metered allowances', () => {
    expect(() => defineApp(validOptions(project.rootDir, { billing: plans }))).not.to.throw();
  });

  it('carries the checked plans on the app model (grace filled in) and gives them to every function as data', () => {
    const app = defineApp(validOptions(project.rootDir, { billing: plans }));
    expect(app.billing).to.deep.equal({ ...plans, graceSeconds: 3600 });
    expect(app.forStage(app.stage).billing).to.deep.equal(app.billing);
    const variable = app.environment[ENV.billingPlans];
    expect(variable).to.deep.equal({ kind: 'static', value: JSON.stringify({ ...plans, graceSeconds: 3600 }) });
    expect(JSON.parse((variable as { value: string }).value)).to.deep.equal(app.billing);
    // An app without billing has neither.
    const plain = defineApp(validOptions(project.rootDir));
    expect(plain.billing).to.equal(undefined);
    expect(Object.keys(plain.environment)).not.to.include(ENV.billingPlans);
  });

  it('refuses plans too large for the functions\' variables, naming the size and the fix', () => {
    const features = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`feature_number_${i}`, i]));
    const problems = lines({ plans: { free: { currency: 'usd', features } }, defaultPlan: 'free' });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^FW_ERR_CONFIG_INVALID_VALUE billing: the plans take \d+ bytes as JSON, above 2048: functions receive them in one variable/);
  });

  it('refuses float money, naming the path and the integer or decimal-string fix', () => {
    const problems = lines({ plans: { free: { currency: 'usd', prices: [{ kind: 'flat', amount: 19.99 }], features: { api_calls: { included: 10, overage: 0.001 } } } }, defaultPlan: 'free' });
    expect(problems).to.have.length(2);
    expect(problems[0]).to.equal('FW_ERR_CONFIG_INVALID_VALUE billing.plans.free.prices[0].amount: expected an integer from 0 to 9007199254740991, got 19.99');
    expect(problems[1]).to.match(/^FW_ERR_CONFIG_INVALID_VALUE billing\.plans\.free\.features\.api_calls\.overage: expected a whole number of minor units \(cents\) or a decimal string of them such as '0\.1'.*got 0\.001$/);
  });

  it('names an unknown default plan, a bad tier order, a typo and an unknown price kind', () => {
    const problems = lines({
      plans: {
        free: { currency: 'usd', prices: [{ kind: 'metered', meter: 'calls', tiers: [{ upTo: 100, unitAmount: 1 }, { upTo: 50, unitAmount: 2 }, { upTo: 1000, unitAmount: 3 }] }] },
        pro: { currency: 'usd', featurs: {}, prices: [{ kind: 'monthly', amount: 1 }] },
      },
      defaultPlan: 'basic',
    });
    expect(problems).to.include('FW_ERR_CONFIG_UNKNOWN_FIELD billing.plans.pro.featurs: is not a field of a plan { currency, prices?, features?, trialDays?, interval?, name? }. Did you mean "features"?');
    expect(problems.some((p) => p.startsWith('FW_ERR_CONFIG_INVALID_VALUE billing.plans.pro.prices[0].kind: expected one of "flat", "per_seat", "metered", got "monthly"'))).to.equal(true);
    // the cross-field checks run once the fields are valid: here the tiers and the default plan
    const second = lines({ plans: { free: plans.plans['free']!, team: { currency: 'usd', prices: [{ kind: 'metered', meter: 'calls', tiers: [{ upTo: 100, unitAmount: 1 }, { upTo: 50, unitAmount: 2 }, { upTo: 1000, unitAmount: 3 }] }] } }, defaultPlan: 'basic' });
    expect(second).to.deep.equal([
      'FW_ERR_CONFIG_INVALID_VALUE billing.defaultPlan: "basic" is not a declared plan: expected one of "free", "team"',
      "FW_ERR_CONFIG_INVALID_VALUE billing.plans.team.prices[0].tiers[1].upTo: expected a whole number above the previous tier's (100), got 50; only the last tier is 'inf'",
      "FW_ERR_CONFIG_INVALID_VALUE billing.plans.team.prices[0].tiers[2].upTo: the last tier must have upTo: 'inf', got 1000",
    ]);
  });

  it('refuses plans in two currencies, a missing field and a bad limit', () => {
    expect(lines({ plans: { a: { currency: 'usd' }, b: { currency: 'eur' } }, defaultPlan: 'a' })).to.deep.equal(['FW_ERR_CONFIG_INVALID_VALUE billing.plans: every plan must bill in one currency (an invoice has one), found usd, eur: pick one']);
    expect(lines({ plans: { a: {} }, defaultPlan: 'a' })).to.deep.equal(["FW_ERR_CONFIG_MISSING_FIELD billing.plans.a.currency: is required: expected a lower-case ISO 4217 currency code such as 'usd'"]);
    expect(lines({ plans: { a: { currency: 'usd', features: { seats: -1 } } }, defaultPlan: 'a' })[0]).to.match(/billing\.plans\.a\.features\.seats: expected true, false, a whole number >= 0 \(a limit\) or \{ included, overage\? \}/);
  });
});
