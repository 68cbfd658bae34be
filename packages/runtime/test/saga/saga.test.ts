import { expect } from 'chai';
import { IdempotencyKeyReusedError, SagaCompensationFailedError, SagaDefinitionError, SagaFailedError, SagaInProgressError } from '../../src/idempotency/errors.js';
import { currentTenant, runWithTenant } from '../../src/context/tenant.js';
import { saga, type SagaStep } from '../../src/saga/saga.js';
import type { SagaStore } from '../../src/saga/saga-store.js';
import { backends } from '../support/store-backends.js';

interface Order {
  orderId: string;
  amount: number;
}

/** A three-step order saga whose steps log what they do; `failAt` makes a step throw. */
function orderSteps(log: string[], failAt: { step?: string; compensation?: string } = {}): SagaStep<Order>[] {
  const step = (name: string): SagaStep<Order> => ({
    name,
    run: async (order, ctx) => {
      log.push(`run ${name}`);
      if (failAt.step === name) throw new Error(`${name} refused`);
      return { [`${name}Id`]: `${name}-${order.orderId}`, key: ctx.idempotencyKey };
    },
    compensate: async (_order, output) => {
      log.push(`undo ${name} ${JSON.stringify(output)}`);
      if (failAt.compensation === name) throw new Error(`cannot undo ${name}`);
    },
  });
  return [step('reserve'), step('charge'), step('ship')];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

for (const backend of backends) {
  describe(`saga with the ${backend.name}`, function () {
    let store: SagaStore;
    const order: Order = { orderId: 'o-1', amount: 42 };

    before(async function () {
      await backend.prepare(this);
    });
    beforeEach(async () => {
      store = await backend.sagaStore();
    });

    it('success: runs the steps in order, stores each output, and a re-run replays without running anything', async () => {
      const log: string[] = [];
      const placeOrder = saga('place-order', orderSteps(log), { store });
      const result = await placeOrder.run(order, { id: 'idem-key-1', traceId: 'trace-1' });
      expect(log).to.deep.equal(['run reserve', 'run charge', 'run ship']);
      expect(result.status).to.equal('completed');
      expect(result.outputs.charge).to.deep.equal({ chargeId: 'charge-o-1', key: 'idem-key-1:charge' });
      expect(result.replayed).to.equal(false);
      const state = await placeOrder.state('idem-key-1');
      expect(state?.status).to.equal('completed');
      expect(state?.traceId).to.equal('trace-1');
      // When the same id runs again
      const again = await placeOrder.run(order, { id: 'idem-key-1' });
      expect(again.replayed).to.equal(true);
      expect(again.outputs).to.deep.equal(result.outputs);
      expect(log).to.have.length(3);
    });

    it('failure: compensates the completed steps in reverse and throws SagaFailedError; state compensated', async () => {
      const log: string[] = [];
      const placeOrder = saga('place-order', orderSteps(log, { step: 'ship' }), { store });
      const error = await rejection(placeOrder.run(order, { id: 'o-fail' }));
      expect(error).to.be.instanceOf(SagaFailedError);
      expect((error as SagaFailedError).failedStep).to.equal('ship');
      expect(((error as Error).cause as Error).message).to.equal('ship refused');
      expect(log).to.deep.equal([
        'run reserve',
        'run charge',
        'run ship',
        'undo charge {"chargeId":"charge-o-1","key":"o-fail:charge"}',
        'undo reserve {"reserveId":"reserve-o-1","key":"o-fail:reserve"}',
      ]);
      const state = await placeOrder.state('o-fail');
      expect(state?.status).to.equal('compensated');
      expect(state?.compensated).to.deep.equal(['charge', 'reserve']);
      // A re-run reports the same failure and runs nothing
      const again = await rejection(placeOrder.run(order, { id: 'o-fail' }));
      expect(again).to.be.instanceOf(SagaFailedError);
      expect(log).to.have.length(5);
    });

    it('a failing compensation leaves the run failed; a re-run retries only the remaining compensations', async () => {
      const log: string[] = [];
      const broken = saga('place-order', orderSteps(log, { step: 'ship', compensation: 'reserve' }), { store });
      const error = await rejection(broken.run(order, { id: 'o-stuck' }));
      expect(error).to.be.instanceOf(SagaCompensationFailedError);
      expect((await broken.state('o-stuck'))?.status).to.equal('failed');
      // When the cause is fixed and the saga runs again with the same id
      const fixedLog: string[] = [];
      const fixed = saga('place-order', orderSteps(fixedLog), { store });
      const retried = await rejection(fixed.run(order, { id: 'o-stuck' }));
      expect(retried).to.be.instanceOf(SagaFailedError);
      expect(fixedLog).to.deep.equal(['undo reserve {"reserveId":"reserve-o-1","key":"o-stuck:reserve"}']);
      expect((await fixed.state('o-stuck'))?.status).to.equal('compensated');
    });

    it('crash and resume: a run that died after a step resumes after the last completed step once its lease is over', async () => {
      let now = Date.now();
      const clock = () => now;
      // Given a run whose process dies inside the second step (the promise never settles)
      const log: string[] = [];
      const steps = orderSteps(log);
      const crashing: SagaStep<Order>[] = [steps[0]!, { name: 'charge', run: () => new Promise(() => log.push('run charge (crashes)')) }, steps[2]!];
      void saga('place-order', crashing, { store, clock, leaseSeconds: 30 }).run(order, { id: 'o-crash' });
      await waitFor(() => log.includes('run charge (crashes)'));
      const placeOrder = saga('place-order', orderSteps(log), { store, clock, leaseSeconds: 30 });
      // While its lease lasts, another run of the same id is refused
      const busy = await rejection(placeOrder.run(order, { id: 'o-crash' }));
      expect(busy).to.be.instanceOf(SagaInProgressError);
      expect((await placeOrder.state('o-crash'))?.status).to.equal('running');
      // When the lease is over, a re-run resumes: reserve is not run again
      now += 30_000;
      const result = await placeOrder.run(order, { id: 'o-crash' });
      expect(result.resumed).to.equal(true);
      expect(log).to.deep.equal(['run reserve', 'run charge (crashes)', 'run charge', 'run ship']);
      expect(Object.keys(result.outputs)).to.deep.equal(['reserve', 'charge', 'ship']);
    });

    it('carries the tenant: every step and compensation runs as the tenant the run started for, also when resumed outside it', async () => {
      let now = Date.now();
      const clock = () => now;
      const seen: string[] = [];
      const tenantOf = (what: string, ctxTenant: string | undefined) => seen.push(`${what} as ${currentTenant()?.id ?? 'none'} (ctx ${ctxTenant ?? 'none'})`);
      // Given a run started for acme whose process dies inside the second step
      const first: SagaStep<Order>[] = [
        { name: 'reserve', run: (_o, c) => void tenantOf('run reserve', c.tenant), compensate: (_o, _out, c) => void tenantOf('undo reserve', c.tenant) },
        { name: 'charge', run: () => new Promise(() => seen.push('charge (crashes)')) },
      ];
      void runWithTenant({ id: 'acme' }, () => saga('tenant-order', first, { store, clock, leaseSeconds: 30 }).run(order, { id: 'o-tenant' }));
      await waitFor(() => seen.includes('charge (crashes)'));
      expect((await saga('tenant-order', first, { store }).state('o-tenant'))?.tenant).to.equal('acme');

      // When a sweeper outside any tenant resumes it, the remaining step and the compensations still run as acme
      now += 30_000;
      const resumed: SagaStep<Order>[] = [
        first[0]!,
        {
          name: 'charge',
          run: (_o, c) => {
            tenantOf('run charge', c.tenant);
            throw new Error('card declined');
          },
          compensate: (_o, _out, c) => void tenantOf('undo charge', c.tenant),
        },
      ];
      const error = await rejection(runWithTenant(undefined, () => saga('tenant-order', resumed, { store, clock, leaseSeconds: 30 }).run(order, { id: 'o-tenant' })));
      expect(error).to.be.instanceOf(SagaFailedError);
      expect(seen).to.deep.equal(['run reserve as acme (ctx acme)', 'charge (crashes)', 'run charge as acme (ctx acme)', 'undo reserve as acme (ctx acme)']);
    });

    it("refuses a run of one tenant to another tenant (another tenant's run is another input)", async () => {
      const placeOrder = saga('place-order', orderSteps([]), { store });
      await runWithTenant({ id: 'acme' }, () => placeOrder.run(order, { id: 'o-acme' }));
      const error = await rejection(runWithTenant({ id: 'globex' }, () => placeOrder.run(order, { id: 'o-acme' })));
      expect(error).to.be.instanceOf(IdempotencyKeyReusedError);
      // acme replays it
      expect((await runWithTenant({ id: 'acme' }, () => placeOrder.run(order, { id: 'o-acme' }))).replayed).to.equal(true);
    });

    it('the same id with another input is refused', async () => {
      const placeOrder = saga('place-order', orderSteps([]), { store });
      await placeOrder.run(order, { id: 'o-same' });
      const error = await rejection(placeOrder.run({ ...order, amount: 1 }, { id: 'o-same' }));
      expect(error).to.be.instanceOf(IdempotencyKeyReusedError);
    });
  });
}

describe('saga definitions', () => {
  it('are checked when the saga is created', () => {
    const store = Promise.resolve({} as SagaStore);
    expect(() => saga('x', [], { store })).to.throw(SagaDefinitionError, /no steps/);
    const step = { name: 'a', run: () => 1 };
    expect(() => saga('x', [step, step], { store })).to.throw(SagaDefinitionError, /used twice/);
    expect(() => saga('has space', [step], { store })).to.throw(SagaDefinitionError);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
