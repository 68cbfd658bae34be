import { expect } from 'chai';
import type { ScheduledEvent, SQSEvent } from 'aws-lambda';
import { createLogger, processRecords, RetryableError, setRootLogger, taskHandler } from '../../src/index.js';
import { lambdaContext, parseLines, sqsEvent, sqsRecord } from '../fixtures/events.js';
import { fakeClock } from '../fixtures/fake-clock.js';

describe('taskHandler', () => {
  let lines: string[];
  beforeEach(() => {
    lines = [];
    setRootLogger(createLogger({ level: 'debug', sink: (l) => lines.push(l) }));
  });
  afterEach(() => setRootLogger(undefined));

  it('passes the whole scheduled event, a ctx and the service, and returns the result', async () => {
    // given an EventBridge scheduled event (shape from the EventBridge user guide)
    const event: ScheduledEvent = {
      version: '0',
      id: '89d1a02d-5ec7-412e-82f5-13505f849b41',
      'detail-type': 'Scheduled Event',
      source: 'aws.scheduler',
      account: '123456789012',
      time: '2026-11-21T08:00:00Z',
      region: 'us-east-2',
      resources: ['arn:aws:scheduler:us-east-2:123456789012:schedule/default/acme-dev-cron-daily'],
      detail: {},
    };
    const main = taskHandler<ScheduledEvent, { at: string; requestId: string; stage: string }>(async (e, ctx, service) => ({
      at: e.time,
      requestId: ctx.requestId,
      stage: service.stage,
    }), { retries: 2 });
    process.env['FW_STAGE'] = 'dev';
    try {
      // when
      const result = await main(event, lambdaContext(10_000, 'aws-req-1'));
      // then
      expect(result).to.deep.equal({ at: '2026-11-21T08:00:00Z', requestId: 'aws-req-1', stage: 'dev' });
    } finally {
      delete process.env['FW_STAGE'];
    }
    expect(main.handlerInfo).to.deep.equal({ kind: 'task', scopes: [], middleware: [], retries: 2 });
  });

  it('retries a transient failure of the whole function and reports the attempt', async () => {
    const clock = fakeClock();
    const attempts: number[] = [];
    const main = taskHandler(async (_e, ctx) => {
      attempts.push(ctx.attempt);
      if (ctx.attempt < 2) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      return 'ok';
    }, { retries: 2, clock });
    expect(await main({}, lambdaContext())).to.equal('ok');
    expect(attempts).to.deep.equal([0, 1, 2]);
    expect(parseLines(lines).filter((l) => l['level'] === 'warn')).to.have.length(2);
  });

  it('logs and rethrows a permanent failure without retrying, so Lambda reports it', async () => {
    const clock = fakeClock();
    let calls = 0;
    const main = taskHandler(async () => {
      calls++;
      throw new TypeError('bad payload');
    }, { retries: 3, clock });
    const error = await main({}, lambdaContext()).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.equal('bad payload');
    expect(calls).to.equal(1);
    const logged = parseLines(lines).find((l) => l['level'] === 'error')!;
    expect(logged).to.include({ message: 'Task failed', requestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678' });
  });
});

describe('processRecords', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));

  it('returns exactly the failing record of three in batchItemFailures (acceptance)', async () => {
    // given a queue consumer whose second record fails
    const main = taskHandler(async (event: SQSEvent) =>
      processRecords<{ n: number }>(event, async (body) => {
        if (body.n === 2) throw new Error('cannot send email 2');
      }),
    );
    const event = sqsEvent(sqsRecord('msg-1', '{"n":1}'), sqsRecord('msg-2', '{"n":2}'), sqsRecord('msg-3', '{"n":3}'));
    // when
    const result = await main(event, lambdaContext());
    // then
    expect(result).to.deep.equal({ processed: 2, batchItemFailures: [{ itemIdentifier: 'msg-2' }] });
  });

  it('parses JSON bodies, passes non-JSON bodies as strings, and hands over the record', async () => {
    const seen: Array<[unknown, string]> = [];
    await processRecords(sqsEvent(sqsRecord('a', '{"to":"x@example.com"}'), sqsRecord('b', 'plain text')), (body, record) => {
      seen.push([body, record.messageId]);
    });
    expect(seen).to.deep.equal([[{ to: 'x@example.com' }, 'a'], ['plain text', 'b']]);
  });

  it('retries each record with the enclosing taskHandler retries', async () => {
    const clock = fakeClock();
    const calls: Record<string, number> = {};
    const main = taskHandler(
      async (event: SQSEvent) =>
        processRecords(event, async (_body, record) => {
          calls[record.messageId] = (calls[record.messageId] ?? 0) + 1;
          // msg-1 recovers on its second try, msg-2 never does
          if (record.messageId === 'msg-2' || calls[record.messageId] === 1) throw new RetryableError('flaky');
        }),
      { retries: 1, clock },
    );
    const result = await main(sqsEvent(sqsRecord('msg-1', '{}'), sqsRecord('msg-2', '{}')), lambdaContext());
    expect(calls).to.deep.equal({ 'msg-1': 2, 'msg-2': 2 });
    expect(result).to.deep.equal({ processed: 1, batchItemFailures: [{ itemIdentifier: 'msg-2' }] });
    expect(clock.waits).to.have.length(2);
  });

  it('on a FIFO queue stops at the first failure and reports the rest too', async () => {
    const handled: string[] = [];
    const result = await processRecords(
      sqsEvent(sqsRecord('f1', '1', true), sqsRecord('f2', '2', true), sqsRecord('f3', '3', true)),
      (_b, record) => {
        handled.push(record.messageId);
        if (record.messageId === 'f2') throw new Error('x');
      },
    );
    expect(handled).to.deep.equal(['f1', 'f2']);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).to.deep.equal(['f2', 'f3']);
  });
});
