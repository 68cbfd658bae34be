import { expect } from 'chai';
import { defineApp, type AppDefinition, type FunctionUnit } from '@framework/core';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Fastify from 'fastify';
import { EmbeddedQueueEngine, EmbeddedScheduler, LocalQueue, selectEngines, parseEnginePreferences, type EngineFactory, type InvokeOutcome } from '../../src/dev/engines/index.js';
import { DevServerError } from '../../src/errors.js';
import { DevClock } from '../../src/dev/clock/index.js';
import { eventually } from './helpers.js';

/** A minimal app with one queue and one cron, built by core from real files in a temporary folder. */
function appWith(queue: Record<string, unknown>, retryAttempts = 2): { app: AppDefinition; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-engines-'));
  for (const file of ['src/queues/jobs.ts', 'src/crons/tick.ts']) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), 'export const main = async () => undefined;\n');
  }
  const app = defineApp({
    base: { name: 'engines', region: 'eu-west-1' },
    security: { scopes: {} },
    envs: { dev: { preset: 'free' } },
    rootDir: dir,
    stage: 'dev',
    infrastructure: { queues: [{ id: 'jobs' }], schedules: [{ id: 'tick', schedule: { rate: '1 day' }, retryAttempts }] },
  });
  // Queue settings below what the cloud allows (a 0 s visibility timeout) keep these tests fast; the engine reads them
  // from the app model as given.
  const tuned: AppDefinition = { ...app, queues: app.queues.map((q) => ({ ...q, ...queue })) };
  return { app: tuned, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('embedded queue engine (LocalQueue)', () => {
  it('delivers in batches of batchSize as SQS events with string bodies and receive counts', async () => {
    const { app, cleanup } = appWith({ batchSize: 2, visibilityTimeout: 0 });
    const batches: { Records: { body: string; attributes: { ApproximateReceiveCount: string }; eventSource: string; eventSourceARN: string }[] }[] = [];
    const queue = new LocalQueue('jobs', { currentApp: () => app, log: quiet, invoke: async (_u: FunctionUnit, event: unknown): Promise<InvokeOutcome> => (batches.push(event as never), { ok: true, value: {} }) });
    try {
      for (const n of [1, 2, 3]) await queue.send(JSON.stringify({ n }));
      await sleep(100);
      expect(batches.map((b) => b.Records.length)).to.deep.equal([2, 1]);
      const record = batches[0]!.Records[0]!;
      expect(record.body).to.equal('{"n":1}');
      expect(record.attributes.ApproximateReceiveCount).to.equal('1');
      expect(record.eventSource).to.equal('aws:sqs');
      expect(record.eventSourceARN).to.equal('arn:aws:sqs:eu-west-1:000000000000:engines-dev-jobs');
      expect(queue.depth).to.equal(0);
    } finally {
      queue.stop();
      cleanup();
    }
  });

  it('redelivers only the records named in batchItemFailures', async () => {
    const { app, cleanup } = appWith({ batchSize: 10, visibilityTimeout: 0, maxReceiveCount: 5 });
    const seen: string[] = [];
    const queue = new LocalQueue('jobs', {
      currentApp: () => app,
      log: quiet,
      invoke: async (_u, event) => {
        const records = (event as { Records: { messageId: string; body: string }[] }).Records;
        seen.push(...records.map((r) => r.body));
        const failed = records.filter((r) => r.body === 'bad' && seen.filter((b) => b === 'bad').length < 2);
        return { ok: true, value: { batchItemFailures: failed.map((r) => ({ itemIdentifier: r.messageId })) } };
      },
    });
    try {
      await queue.send('good');
      await queue.send('bad');
      await sleep(150);
      expect(seen).to.deep.equal(['good', 'bad', 'bad']);
      expect(queue.depth).to.equal(0);
    } finally {
      queue.stop();
      cleanup();
    }
  });

  it('moves a message that keeps failing to the dead-letter queue after maxReceiveCount receives', async () => {
    const { app, cleanup } = appWith({ visibilityTimeout: 0, maxReceiveCount: 3 });
    let calls = 0;
    const queue = new LocalQueue('jobs', { currentApp: () => app, log: quiet, invoke: async () => (calls++, { ok: false, reason: 'error', errorType: 'Error', errorMessage: 'nope' }) });
    try {
      const message = await queue.send('poison');
      await sleep(150);
      expect(calls).to.equal(3);
      expect(queue.deadLetters.map((d) => [d.messageId, d.receiveCount])).to.deep.equal([[message.messageId, 3]]);
      expect(queue.depth).to.equal(0);
    } finally {
      queue.stop();
      cleanup();
    }
  });

  it('keeps a received message hidden for the visibility timeout', async () => {
    const { app, cleanup } = appWith({ visibilityTimeout: 1, maxReceiveCount: 5 });
    let calls = 0;
    const queue = new LocalQueue('jobs', { currentApp: () => app, log: quiet, invoke: async () => (calls++, { ok: false, reason: 'timeout', errorType: 'Sandbox.Timedout', errorMessage: 'slow' }) });
    try {
      await queue.send('slow');
      await sleep(300);
      expect(calls).to.equal(1);
      await sleep(1000);
      expect(calls).to.equal(2);
    } finally {
      queue.stop();
      cleanup();
    }
  });
});

describe('embedded queue engine across restarts (.fw/queues/<id>.log)', () => {
  type Batch = { Records: { messageId: string; body: string; attributes: { ApproximateReceiveCount: string } }[] };
  const failing = async (): Promise<InvokeOutcome> => ({ ok: false, reason: 'crash', errorType: 'Runtime.ExitError', errorMessage: 'killed' });

  it('keeps waiting, delayed and in-flight messages; in-flight ones are visible again at once, with their receive counts', async () => {
    const { app, cleanup } = appWith({ batchSize: 10, visibilityTimeout: 600, maxReceiveCount: 5 });
    const file = path.join(app.rootDir, '.fw', 'queues', 'jobs.log');
    const first: Batch[] = [];
    const before = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke: async (_u, e) => (first.push(e as Batch), failing()) }, file);
    try {
      const inFlight = await before.send('in flight');
      const delayed = await before.send('delayed', 900);
      await eventually(async () => (first.length === 1 ? true : undefined));
      // The process dies here: no close, the consumer never answers for the message it holds (hidden for 600 s).
      before.stop();

      const second: Batch[] = [];
      const after = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke: async (_u, e) => (second.push(e as Batch), { ok: true, value: {} }) }, file);
      await eventually(async () => (second.length === 1 && after.depth === 1 ? true : undefined));
      expect(second[0]!.Records.map((r) => [r.messageId, r.body, r.attributes.ApproximateReceiveCount])).to.deep.equal([[inFlight.messageId, 'in flight', '2']]);
      await after.close();

      const third = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke: failing }, file);
      expect(third.depth).to.equal(1);
      await third.close();
      expect(delayed.messageId).to.not.equal(inFlight.messageId);
    } finally {
      await before.close();
      cleanup();
    }
  });

  it('keeps dead letters, and a message cut off mid-delivery keeps counting towards maxReceiveCount', async () => {
    const { app, cleanup } = appWith({ batchSize: 10, visibilityTimeout: 0, maxReceiveCount: 2 });
    const file = path.join(app.rootDir, '.fw', 'queues', 'jobs.log');
    let calls = 0;
    // The poison message fails; the survivor's consumer never answers: fw dev is killed while it runs.
    const invoke = async (_u: FunctionUnit, e: unknown) => (calls++, (e as Batch).Records[0]!.body === 'poison' ? failing() : new Promise<InvokeOutcome>(() => undefined));
    const before = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke }, file);
    try {
      const poison = await before.send('poison');
      await eventually(async () => (before.deadLetters.length === 1 ? true : undefined));
      const survivor = await before.send('survivor');
      await eventually(async () => (calls === 3 ? true : undefined));
      before.stop();

      const counts: string[] = [];
      const after = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke: async (_u, e) => (counts.push(...(e as Batch).Records.map((r) => r.attributes.ApproximateReceiveCount)), failing()) }, file);
      expect(after.deadLetters.map((d) => [d.messageId, d.body, d.receiveCount])).to.deep.equal([[poison.messageId, 'poison', 2]]);
      await eventually(async () => (after.deadLetters.length === 2 ? true : undefined));
      // Received once before the restart, once after; then moved: never counted from zero again.
      expect(counts).to.deep.equal(['2']);
      expect(after.deadLetters[1]).to.include({ messageId: survivor.messageId, receiveCount: 2 });
      expect(after.depth).to.equal(0);
      await after.close();
    } finally {
      await before.close();
      cleanup();
    }
  });

  it('answers 202 only once the message is on disk, and 503 QUEUE_WRITE_FAILED when it cannot be written', async () => {
    const { app, cleanup } = appWith({ visibilityTimeout: 600 });
    const engine = new EmbeddedQueueEngine();
    const server = Fastify();
    try {
      const context = { rootDir: app.rootDir, dataDir: path.join(app.rootDir, '.fw'), baseUrl: 'http://127.0.0.1:1', host: '127.0.0.1', log: quiet, currentApp: () => app, freePort: async () => 0, invoke: failing };
      const started = await engine.start(app, context);
      server.removeAllContentTypeParsers();
      server.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
      await server.register(started.plugin!);
      const sent = await server.inject({ method: 'POST', url: '/_dev/queues/jobs/messages', payload: { body: 'kept', delaySeconds: 900 } });
      expect(sent.statusCode).to.equal(202);
      const logged = fs.readFileSync(path.join(app.rootDir, '.fw', 'queues', 'jobs.log'), 'utf8');
      expect(logged).to.include(sent.json().messageId).and.include('"body":"kept"');

      await engine.queues.get('jobs')!.close();
      const refused = await server.inject({ method: 'POST', url: '/_dev/queues/jobs/messages', payload: { body: 'lost' } });
      expect(refused.statusCode).to.equal(503);
      expect(refused.json().error.code).to.equal('QUEUE_WRITE_FAILED');
      expect(refused.json().error.message).to.not.match(/closed/);
    } finally {
      await server.close();
      await engine.stop();
      cleanup();
    }
  });
});

describe('embedded scheduler', () => {
  it('retries a failing cron retryAttempts times with exponential backoff, with scheduled events', async () => {
    const { app, cleanup } = appWith({}, 2);
    const calls: { at: number; event: { 'detail-type': string; source: string; resources: string[] } }[] = [];
    const scheduler = new EmbeddedScheduler({ retryBaseMs: 100 });
    try {
      await scheduler.start(app, {
        rootDir: app.rootDir, dataDir: path.join(app.rootDir, '.fw'), baseUrl: '', host: '127.0.0.1', log: quiet, currentApp: () => app, freePort: async () => 0,
        invoke: async (_u, event) => (calls.push({ at: Date.now(), event: event as never }), { ok: false, reason: 'error', errorType: 'Error', errorMessage: 'down' }),
      });
      const ok = await scheduler.fire(app.crons[0]!);
      expect(ok).to.equal(false);
      expect(calls).to.have.length(3);
      // Each retry waits at least its delay (100 ms, then 200 ms). Lower bounds only: a busy machine makes gaps longer,
      // never shorter (2 ms for timer rounding).
      expect(calls[1]!.at - calls[0]!.at).to.be.at.least(100 - 2);
      expect(calls[2]!.at - calls[1]!.at).to.be.at.least(200 - 2);
      expect(calls[0]!.event['detail-type']).to.equal('Scheduled Event');
      // EventBridge Scheduler's event, as the deployed schedule (default group, named after the cron) sends it.
      expect(calls[0]!.event.source).to.equal('aws.scheduler');
      expect(calls[0]!.event.resources).to.deep.equal(['arn:aws:scheduler:eu-west-1:000000000000:schedule/default/engines-dev-cron-tick']);
      expect((calls[0]!.event as unknown as { detail: unknown }).detail).to.equal('{}');
    } finally {
      await scheduler.stop();
      cleanup();
    }
  });
});

describe('embedded scheduler on a manual clock (tests)', () => {
  it('a cron failing every run: advance(1d) returns with each attempt in the trace, at its backoff; nothing stays held', async () => {
    const { app, cleanup } = appWith({}, 2);
    const clock = new DevClock('manual', Date.UTC(2026, 0, 1));
    const scheduler = new EmbeddedScheduler({ retryBaseMs: 1000 });
    try {
      await scheduler.start(app, {
        rootDir: app.rootDir, dataDir: path.join(app.rootDir, '.fw'), baseUrl: '', host: '127.0.0.1', log: quiet, currentApp: () => app, freePort: async () => 0, clock,
        invoke: async (unit) => {
          clock.record({ kind: 'cron', id: unit.id, ok: false, error: 'Error: down' });
          return { ok: false, reason: 'error', errorType: 'Error', errorMessage: 'down' };
        },
      });
      // rate(1 day) from the start: one run in the first day and a half, three attempts 1 s then 2 s apart.
      const trace = await clock.advance(36 * 3_600_000);
      expect(trace.map((t) => `${t.time} ${t.id} ${t.ok}`)).to.deep.equal([
        '2026-01-02T00:00:00.000Z tick false',
        '2026-01-02T00:00:01.000Z tick false',
        '2026-01-02T00:00:03.000Z tick false',
      ]);
      expect(clock.pending).to.equal(0);
      // The run gave up: the next day's run is a new one, and drain() has nothing left (crons wait for advance).
      expect(await clock.drain()).to.deep.equal([]);
      expect(await clock.advance(86_400_000)).to.have.length(3);
    } finally {
      await scheduler.stop();
      cleanup();
    }
  });
});

describe('embedded scheduler across restarts (.fw/schedules/retries.log)', () => {
  it('resumes a pending retry after a restart, for the same scheduled time, counting the attempts already made', async () => {
    const { app, cleanup } = appWith({}, 2);
    const dataDir = path.join(app.rootDir, '.fw');
    const context = (invoke: (u: FunctionUnit, e: unknown) => Promise<InvokeOutcome>, lines: string[] = []) => ({
      rootDir: app.rootDir, dataDir, baseUrl: '', host: '127.0.0.1', currentApp: () => app, freePort: async () => 0, invoke,
      log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) },
    });
    const firstCalls: string[] = [];
    const before = new EmbeddedScheduler({ retryBaseMs: 300 });
    const after = new EmbeddedScheduler({ retryBaseMs: 300 });
    const last = new EmbeddedScheduler();
    try {
      await before.start(app, context(async (_u, e) => (firstCalls.push((e as { time: string }).time), { ok: false, reason: 'error', errorType: 'Error', errorMessage: 'down' })));
      const scheduled = new Date('2026-01-01T07:00:00.000Z');
      void before.fire(app.crons[0]!, scheduled);
      await eventually(async () => (firstCalls.length === 1 ? true : undefined));
      // Killed while the first retry waits.
      await before.stop();

      const secondCalls: string[] = [];
      const lines: string[] = [];
      await after.start(app, context(async (_u, e) => (secondCalls.push((e as { time: string }).time), { ok: true, value: null }), lines));
      await eventually(async () => (secondCalls.length === 1 ? true : undefined));
      expect(secondCalls).to.deep.equal(['2026-01-01T07:00:00Z']);
      expect(lines.join('\n')).to.match(/resuming the run for 2026-01-01T07:00:00.000Z .*attempt 2 of 3/);
      expect(firstCalls).to.have.length(1);
      await after.stop();

      // The run ended: nothing is resumed again.
      const thirdCalls: unknown[] = [];
      const thirdLines: string[] = [];
      await last.start(app, context(async (_u, e) => (thirdCalls.push(e), { ok: true, value: null }), thirdLines));
      expect(thirdLines.join('\n')).to.not.match(/resuming/);
    } finally {
      await Promise.all([before.stop(), after.stop(), last.stop()]);
      cleanup();
    }
  });
});

describe('engine selection', () => {
  const factory = (intent: 'databases', kind: 'native' | 'embedded', available: boolean): EngineFactory => ({
    intent, kind, label: kind, isAvailable: async () => available, isNeeded: () => true, create: () => { throw new Error('not started here'); },
  });

  it('prefers native over embedded when it is available, embedded otherwise, and honours a named kind', async () => {
    const { app, cleanup } = appWith({});
    try {
      expect((await selectEngines(app, {}, [factory('databases', 'embedded', true), factory('databases', 'native', true)])).map((f) => f.kind)).to.deep.equal(['native']);
      expect((await selectEngines(app, {}, [factory('databases', 'embedded', true), factory('databases', 'native', false)])).map((f) => f.kind)).to.deep.equal(['embedded']);
      expect((await selectEngines(app, { databases: 'embedded' }, [factory('databases', 'embedded', true), factory('databases', 'native', true)])).map((f) => f.kind)).to.deep.equal(['embedded']);
    } finally {
      cleanup();
    }
  });

  it('refuses an engine that cannot run here, and a malformed --engine value', async () => {
    const { app, cleanup } = appWith({});
    try {
      let error: unknown;
      await selectEngines(app, { databases: 'native' }, [factory('databases', 'native', false)]).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(DevServerError).with.property('code', 'FW_ERR_DEV_NO_ENGINE');
      expect(() => parseEnginePreferences('databases')).to.throw(DevServerError, /intent>=</);
      // Only the kinds that have an engine are offered (no container engine exists)
      expect(() => parseEnginePreferences('databases=container')).to.throw(DevServerError, /<native\|embedded>/);
      expect(parseEnginePreferences('databases=embedded, queues=embedded')).to.deep.equal({ databases: 'embedded', queues: 'embedded' });
    } finally {
      cleanup();
    }
  });
});
