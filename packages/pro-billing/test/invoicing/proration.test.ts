import { expect } from 'chai';
import fc from 'fast-check';
import { periodSpans, subscriptionLines, type PlanSegmentStart } from '../../src/index.js';
import { PLANS } from '../support/plans.js';

const period = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };
const periodSeconds = 30 * 86_400;
const flatOf: Record<string, bigint> = { free: 0n, pro: 2900n, team: 9900n };

/** Random plan changes inside the period: second offset, plan, seats (sorted by time, versions in that order). */
const changes = fc
  .array(fc.record({ at: fc.integer({ min: 0, max: periodSeconds - 1 }), plan: fc.constantFrom('free', 'pro', 'team'), seats: fc.integer({ min: 0, max: 12 }) }), { minLength: 1, maxLength: 8 })
  .map((list) =>
    [...list]
      .sort((a, b) => a.at - b.at)
      .map((c, i): PlanSegmentStart => ({ version: i + 1, planId: c.plan, status: 'active', seats: c.seats, effectiveAt: new Date(period.start.getTime() + c.at * 1000) })),
  );

function total(history: readonly PlanSegmentStart[]): bigint {
  return subscriptionLines(PLANS, periodSpans(history, period), period).reduce((sum, line) => sum + line.amount, 0n);
}

describe('proration over plan changes (integer minor units)', () => {
  it('charges a plan held the whole period exactly its price: base and seat lines, no proration', () => {
    const lines = subscriptionLines(PLANS, periodSpans([{ version: 1, planId: 'pro', status: 'active', seats: 5, effectiveAt: period.start }], period), period);
    expect(lines.map((l) => [l.kind, l.amount])).to.deep.equal([['base', 2900n], ['seats', 1000n]]);
  });

  it('stays within one minor unit of the exact share per price and segment, in integers (random plan changes)', () => {
    fc.assert(
      fc.property(changes, (history) => {
        const spans = periodSpans(history, period);
        const lines = subscriptionLines(PLANS, spans, period);
        for (const line of lines) expect(typeof line.amount).to.equal('bigint');
        // exact share of each span in (minor units x seconds), against the rounded lines x seconds
        let exact = 0n;
        for (const s of spans) {
          const seconds = BigInt((s.to.getTime() - s.from.getTime()) / 1000);
          const seats = s.planId === 'pro' ? BigInt(Math.max(0, s.seats - 3)) * 500n : 0n;
          exact += (flatOf[s.planId]! + seats) * seconds;
        }
        const charged = lines.reduce((sum, l) => sum + l.amount, 0n) * BigInt(periodSeconds);
        const gap = charged > exact ? charged - exact : exact - charged;
        expect(gap <= BigInt(2 * spans.length * periodSeconds)).to.equal(true);
      }),
    );
  });

  it('sums exactly however a span is split: a change that keeps plan and seats changes no amount', () => {
    fc.assert(
      fc.property(changes, fc.integer({ min: 1, max: periodSeconds - 1 }), (history, cut) => {
        const at = new Date(period.start.getTime() + cut * 1000);
        const inForce = [...history].reverse().find((h) => h.effectiveAt.getTime() <= at.getTime());
        if (!inForce) return;
        const split = [...history, { ...inForce, version: 99, effectiveAt: at }].sort((a, b) => a.effectiveAt.getTime() - b.effectiveAt.getTime() || a.version - b.version);
        expect(total(split)).to.equal(total(history));
      }),
    );
  });

  it('charges half the price for half the period on each side of an upgrade at mid-period', () => {
    const mid = new Date('2026-11-16T00:00:00Z');
    const lines = subscriptionLines(
      PLANS,
      periodSpans([{ version: 1, planId: 'pro', status: 'active', seats: 1, effectiveAt: period.start }, { version: 2, planId: 'team', status: 'active', seats: 1, effectiveAt: mid }], period),
      period,
    );
    expect(lines.map((l) => [l.kind, l.planId, l.amount])).to.deep.equal([['proration', 'pro', 1450n], ['proration', 'team', 4950n]]);
    expect(lines[0]!.note).to.contain('1296000 of 2592000 seconds');
  });

  it('does not charge a trial, or time before the first subscription', () => {
    const mid = new Date('2026-11-16T00:00:00Z');
    const lines = subscriptionLines(PLANS, periodSpans([{ version: 1, planId: 'pro', status: 'trialing', seats: 9, effectiveAt: new Date('2026-11-10T00:00:00Z') }, { version: 2, planId: 'pro', status: 'active', seats: 3, effectiveAt: mid }], period), period);
    expect(lines.map((l) => [l.kind, l.amount])).to.deep.equal([['proration', 1450n]]);
  });
});
