import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { expect } from 'chai';
import {
  IdempotencyConfigError,
  IdempotencyInProgressError,
  IdempotencyKeyMissingError,
  IdempotencyKeyReusedError,
} from '../../src/idempotency/errors.js';
import type { IdempotencyStore } from '../../src/idempotency/idempotency-store.js';
import { makeIdempotent } from '../../src/idempotency/make-idempotent.js';
import { processRecords } from '../../src/task/process-records.js';
import { taskHandler } from '../../src/task/task-handler.js';
import { lambdaContext, sqsEvent, sqsRecord } from '../fixtures/events.js';
import { backends } from '../support/store-backends.js';

interface Order {
  orderId: string;
  poison?: boolean;
}

for (const backend of backends) {
  describe(`makeIdempotent (queue, cron and function idempotency) with the ${backend.name}`, function () {
    let store: IdempotencyStore;

    before(async function () {
      await backend.prepare(this);
    });
    beforeEach(async () => {
      store = await backend.idempotencyStore();
    });

    /** A queue consumer whose per-record work is idempotent on the message id; counts the effects. */
    function consumer() {
      const effects: string[] = [];
      const attempts: string[] = [];
      const chargeOnce = makeIdempotent(
        async (order: Order, _record: SQSRecord) => {
          attempts.push(order.orderId);
          if (order.poison) throw new Error(`cannot charge ${order.orderId}`);
          effects.push(order.orderId);
          return { charged: order.orderId };
        },
        { store, scope: 'payments-queue', key: (_order, record) => record.messageId },
      );
      const main = taskHandler((event: SQSEvent) => processRecords<Order>(event, (order, record) => chargeOnce(order, record)));
      return { main, effects, attempts };
    }

    it('a redelivered batch with a poison record: the good records run once, the poison one is retried', async () => {
      // Given a batch where one record always fails
      const { main, effects, attempts } = consumer();
      const batch = sqsEvent(
        sqsRecord('m-1', JSON.stringify({ orderId: 'o-1' })),
        sqsRecord('m-2', JSON.stringify({ orderId: 'o-2', poison: true })),
        sqsRecord('m-3', JSON.stringify({ orderId: 'o-3' })),
      );
      // When the queue delivers it, then redelivers the whole batch (as after a timeout of the consumer)
      const first = await main(batch, lambdaContext());
      const second = await main(batch, lambdaContext());
      // Then each good record had its effect once, and only the poison record is reported failed each time
      expect(effects).to.deep.equal(['o-1', 'o-3']);
      expect(first.batchItemFailures).to.deep.equal([{ itemIdentifier: 'm-2' }]);
      expect(second.batchItemFailures).to.deep.equal([{ itemIdentifier: 'm-2' }]);
      expect(attempts.filter((id) => id === 'o-2')).to.have.length(2);
      expect(attempts.filter((id) => id === 'o-1')).to.have.length(1);
    });

    it('a duplicate delivery while the first is still running fails fast and replays once it is done', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const running = new Promise<void>((resolve) => (entered = resolve));
      let effects = 0;
      const slowOnce = makeIdempotent(
        async (order: Order) => {
          entered();
          await gate;
          effects++;
          return order.orderId;
        },
        { store, scope: 'slow-queue', key: (order) => order.orderId },
      );
      const first = slowOnce({ orderId: 'o-9' });
      await running;
      let error: unknown;
      try {
        await slowOnce({ orderId: 'o-9' });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(IdempotencyInProgressError);
      release();
      expect(await first).to.equal('o-9');
      expect(await slowOnce({ orderId: 'o-9' })).to.equal('o-9');
      expect(effects).to.equal(1);
    });

    it('a failure deletes the record so the next attempt runs', async () => {
      let calls = 0;
      const flaky = makeIdempotent(
        async (_date: string) => {
          calls++;
          if (calls === 1) throw new Error('transient');
          return 'done';
        },
        { store, scope: 'cron-report', key: (date: string) => date },
      );
      let error: unknown;
      try {
        await flaky('2026-11-21');
      } catch (e) {
        error = e;
      }
      expect((error as Error).message).to.equal('transient');
      expect(await flaky('2026-11-21')).to.equal('done');
      expect(await flaky('2026-11-21')).to.equal('done');
      expect(calls).to.equal(2);
    });

    it('with a fingerprint, the same key with another input throws IdempotencyKeyReusedError', async () => {
      const once = makeIdempotent(async (order: Order & { amount: number }) => order.amount, {
        store,
        scope: 'fn-refund',
        key: (order) => order.orderId,
        fingerprint: (order) => order.amount,
      });
      expect(await once({ orderId: 'o-1', amount: 5 })).to.equal(5);
      let error: unknown;
      try {
        await once({ orderId: 'o-1', amount: 7 });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(IdempotencyKeyReusedError);
    });

    it('a missing key is an error naming the scope', async () => {
      const once = makeIdempotent(async (order: Partial<Order>) => order, { store, scope: 'orders', key: (order) => order.orderId });
      let error: unknown;
      try {
        await once({});
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(IdempotencyKeyMissingError);
      expect((error as Error).message).to.contain('"orders"');
    });
  });
}

describe('makeIdempotent options', () => {
  it('are checked when it is created', () => {
    expect(() => makeIdempotent(async () => 1, { store: undefined as unknown as IdempotencyStore, scope: 's', key: () => 'k' })).to.throw(
      IdempotencyConfigError,
      /store/,
    );
    expect(() => makeIdempotent(async () => 1, { store: Promise.resolve({} as IdempotencyStore), scope: '', key: () => 'k' })).to.throw(
      IdempotencyConfigError,
      /scope/,
    );
  });
});
