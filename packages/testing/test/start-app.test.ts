import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { DatabaseSnapshot, startApp, TestingError, type ClientFactoryOptions, type TestApp, type HttpClient } from '../src/index.js';
import { copyExample } from './helpers/example-copy.js';

/** Whether something accepts connections on this port of 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

let key = 0;
const idempotent = () => ({ headers: { 'idempotency-key': `test-${process.pid}-${++key}` } });

const FAILING_CRON = `import { taskHandler } from '@framework/runtime';

export const main = taskHandler(async () => {
  throw new Error('the payment provider is down');
});
`;

describe('startApp (the example app, PGlite)', function () {
  let example: ReturnType<typeof copyExample>;
  let app: TestApp<HttpClient>;

  before(async () => {
    example = copyExample();
    // The nightly billing cron (02:00 UTC) replaced by one that fails every run: the clock's tests below see its
    // attempts in the trace, and no advance may hang on it.
    fs.writeFileSync(path.join(example.dir, 'src', 'crons', 'billing-close.ts'), FAILING_CRON);
    app = await startApp({ root: example.dir, engines: { databases: 'embedded' } });
  });
  after(async () => {
    await app?.stop();
    example?.remove();
  });
  beforeEach(() => app.resetData());

  describe('auth seeding', () => {
    it('a member reads tasks (200) and may not create one (403); an admin creates one (201); no token is a 401', async () => {
      const member = app.as({ roles: ['member'], tenant: 'acme' });
      expect((await member.get('/tasks')).status).to.equal(200);
      const refused = await member.post('/tasks', { title: 'not mine to write' }, idempotent());
      expect(refused.status).to.equal(403);
      const created = await app.as({ roles: ['admin'], sub: 'ada', tenant: 'acme' }).post('/tasks', { title: 'written by an admin' }, idempotent());
      expect(created.status).to.equal(201);
      expect(created.body.title).to.equal('written by an admin');
      expect((await app.anonymous.get('/tasks')).status).to.equal(401);
    });

    it('a machine client gets its own token (reporting may read; a token without a tenant is refused by the app, not the gateway)', async () => {
      const anonymous = await app.anonymous.get('/tasks');
      const machine = await app.asMachine('reporting').get('/tasks');
      expect(anonymous.status).to.equal(401);
      // The example is multi-tenant: past the token check, its tenancy middleware asks for the tenant.
      expect(machine.status, machine.text).to.equal(400);
      expect(machine.text).to.contain('TENANT_REQUIRED');
    });

    it('scopes can be named directly; an undeclared role is FW_ERR_TESTING_TOKEN naming it', async () => {
      expect((await app.as({ scopes: ['tasks:read'], tenant: 'acme' }).get('/tasks')).status).to.equal(200);
      const error = await app
        .as({ roles: ['owner'] })
        .get('/tasks')
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(TestingError);
      expect((error as TestingError).code).to.equal('FW_ERR_TESTING_TOKEN');
      expect((error as TestingError).message).to.contain('"owner"');
    });
  });

  describe('the clock', () => {
    it('advance(1d) fires the daily cron once, at 07:00 UTC, and returns what ran', async () => {
      const trace = await app.clock.advance('1d');
      const runs = trace.filter((t) => t.kind === 'cron' && t.id === 'daily-summary');
      expect(runs).to.have.length(1);
      expect(runs[0]!.ok).to.equal(true);
      expect(runs[0]!.time).to.match(/T07:00:00\.000Z$/);
      // The cron asks the task-summary function for the counts: that ran too, inside the window.
      expect(trace.some((t) => t.kind === 'function' && t.id === 'task-summary' && t.ok)).to.equal(true);
    });

    it('a cron that fails every run: advance(1d) returns, each attempt (1 s, then 2 s later) failed in the trace; drain() ends', async () => {
      const trace = await app.clock.advance('1d');
      const billing = trace.filter((t) => t.kind === 'cron' && t.id === 'billing-close');
      expect(billing.map((t) => [t.time.slice(11), t.ok, t.error])).to.deep.equal([
        ['02:00:00.000Z', false, 'Error: the payment provider is down'],
        ['02:00:01.000Z', false, 'Error: the payment provider is down'],
        ['02:00:03.000Z', false, 'Error: the payment provider is down'],
      ]);
      // The other crons of the window ran on.
      expect(trace.filter((t) => t.id === 'daily-summary' && t.ok)).to.have.length(1);
      // The run gave up after its retries: nothing of it is left for drain().
      expect((await app.drain()).filter((t) => t.id === 'billing-close')).to.deep.equal([]);
    });

    it('time does not move on its own: a cron never fires between advances', async () => {
      const before = app.clock.now().getTime();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(app.clock.now().getTime()).to.equal(before);
      const trace = await app.clock.advance('2d');
      expect(trace.filter((t) => t.id === 'daily-summary')).to.have.length(2);
      expect(app.clock.now().getTime()).to.equal(before + 2 * 86_400_000);
    });

    it('a duration that does not parse is FW_ERR_TESTING_BAD_OPTION', async () => {
      const error = await app.clock.advance('one day').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as TestingError).code).to.equal('FW_ERR_TESTING_BAD_OPTION');
    });
  });

  describe('queues', () => {
    it('drain() delivers the message a route sent: the consumer recorded the event', async () => {
      const created = await app.as({ roles: ['admin'], tenant: 'acme' }).post('/tasks', { title: 'queued' }, idempotent());
      expect(created.status).to.equal(201);
      // Sent, not delivered: nothing runs in the engines before the test drains or advances.
      expect(app.queues['task-events']!.messages().map((m) => JSON.parse(m.body))).to.deep.equal([{ type: 'task.created', taskId: created.body.id }]);
      const trace = await app.drain();
      expect(trace.some((t) => t.kind === 'queue' && t.id === 'task-events' && t.ok)).to.equal(true);
      const events = await app.db().query<{ task_id: string; type: string }>('SELECT task_id, type FROM task_events');
      expect(events).to.deep.equal([{ task_id: created.body.id, type: 'task.created' }]);
      expect(app.queues['task-events']!.messages()).to.deep.equal([]);
    });

    it('a poison message is redelivered until it reaches the dead-letter queue, visible in deadLetters()', async () => {
      const body = JSON.stringify({ type: 'task.deleted', taskId: `poison-${Date.now()}` });
      await app.queues['task-events']!.send(body);
      const trace = await app.drain();
      // maxReceiveCount 2: received twice (the second after the visibility timeout, moved by drain), then moved.
      expect(trace.filter((t) => t.kind === 'queue' && t.id === 'task-events')).to.have.length(2);
      const dead = app.queues['task-events']!.deadLetters().filter((d) => d.body === body);
      expect(dead).to.have.length(1);
      expect(dead[0]!.receiveCount).to.equal(2);
    });

    it('a message one test sends and never drains (1/2)', async () => {
      await app.queues['task-events']!.send({ type: 'task.created', taskId: '00000000-0000-4000-8000-0000000000ff' });
      expect(app.queues['task-events']!.messages()).to.have.length(1);
    });

    it('is purged by resetData before the next test (2/2)', () => {
      expect(app.queues['task-events']!.messages()).to.deep.equal([]);
    });

    it('an unknown queue id is FW_ERR_TESTING_NOT_FOUND naming the queues', () => {
      expect(() => app.queues['task-event']).to.throw(TestingError, /no queue "task-event".*task-events/);
    });
  });

  describe('a clean database per test', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    for (const n of [1, 2]) {
      it(`test ${n} inserts the same row (the other test's row is gone)`, async () => {
        expect(await app.db().query('SELECT id FROM tasks')).to.deep.equal([]);
        const [row] = await app.db().seed<{ id: string; status: string }>('tasks', [{ id, owner: 'local-user', title: `from test ${n}`, tenant_id: 'acme' }]);
        expect(row!.status).to.equal('open');
        const listed = await app.as({ roles: ['member'], tenant: 'acme' }).get('/tasks');
        expect(listed.body.tasks.map((t: { title: string }) => t.title)).to.deep.equal([`from test ${n}`]);
      });
    }

    it('sequences start again too', async () => {
      // Through the route: the message carries the tenant the consumer runs as.
      expect((await app.as({ roles: ['admin'], tenant: 'acme' }).post('/tasks', { title: 'sequenced' }, idempotent())).status).to.equal(201);
      await app.drain();
      const [event] = await app.db().query<{ id: string }>('SELECT id FROM task_events');
      expect(event!.id).to.equal('1');
    });

    it('the next app starts from the snapshot kept beside the migrated template (no wait for its database), equal to a live one, and resets from it', async () => {
      const testDir = path.join(example.dir, '.fw', 'test');
      const template = fs.readdirSync(testDir).find((f) => /^migrated-embedded-[0-9a-f]{16}$/.test(f));
      const saved = path.join(testDir, template!, 'snapshot-main.json');
      expect(fs.existsSync(saved), 'the first app kept its snapshot').to.equal(true);
      const second = await startApp({ root: example.dir, engines: { databases: 'embedded' } });
      try {
        await second.db().seed('tasks', [{ owner: 'second', title: 'only in the second app', tenant_id: 'acme' }]);
        expect(await app.db().query('SELECT id FROM tasks'), 'each app has its own database').to.deep.equal([]);
        await second.resetData();
        expect(await second.db().query('SELECT id FROM tasks')).to.deep.equal([]);
        const live = await DatabaseSnapshot.take(second.db().endpoint);
        try {
          expect(JSON.parse(JSON.stringify(live.content))).to.deep.equal(JSON.parse(fs.readFileSync(saved, 'utf8')));
        } finally {
          await live.close();
        }
      } finally {
        await second.stop();
      }
    });
  });

  describe('observation', () => {
    it('invoke() runs a standalone function with a payload', async () => {
      await app.db().seed('tasks', [{ owner: 'a', title: 'one', tenant_id: 'acme' }, { owner: 'b', title: 'two', status: 'done', tenant_id: 'acme' }]);
      const result = await app.invoke<{ open: number; done: number }>('task-summary', {});
      expect(result).to.deep.equal({ ok: true, value: { open: 1, done: 1 } });
    });

    it('logs() finds what a function logged for one request id', async () => {
      const trace = await app.clock.advance('1d');
      expect(trace.length).to.be.greaterThan(0);
      const summary = app.logs().find((l) => l.entry?.message === 'daily task summary');
      expect(summary, 'the cron logged its summary').to.not.equal(undefined);
      const requestId = summary!.entry!.requestId as string;
      expect(app.logs(requestId).every((l) => l.entry?.requestId === requestId)).to.equal(true);
    });

    it('storage lists a bucket (empty here)', async () => {
      expect(await app.storage.attachments!.list()).to.deep.equal([]);
    });
  });

  describe('startApp({ url }): a deployed stage', () => {
    it('local-only helpers throw FW_ERR_TESTING_LOCAL_ONLY; HTTP calls go to the URL', async () => {
      // The running app stands in for the stage: only its URL is used.
      const remote = await startApp({ url: app.url });
      expect(remote.local).to.equal(false);
      expect((await remote.anonymous.get('/health')).status).to.equal(200);
      for (const use of [() => remote.clock.now(), () => remote.db(), () => remote.queues['task-events'], () => remote.logs()]) {
        expect(use).to.throw(TestingError).with.property('code', 'FW_ERR_TESTING_LOCAL_ONLY');
      }
      for (const use of [() => remote.drain(), () => remote.resetData(), () => remote.invoke('task-summary'), () => remote.as({ roles: ['member'] }).get('/tasks')]) {
        const error = await use().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_LOCAL_ONLY');
      }
    });

    it('a url that is not one is FW_ERR_TESTING_BAD_OPTION', async () => {
      const error = await startApp({ url: 'not a url' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_BAD_OPTION');
    });
  });
});

describe('startApp: stop()', function () {
  it('takes a generated client; leaves no port behind: the app, its database and the data folder are gone', async () => {
    const example = copyExample();
    try {
      // The example's generated client (fw gen client) as the clients' factory: typed calls, tokens from as().
      const { createClient } = await import(pathToFileURL(path.join(example.dir, 'src', 'client.gen.ts')).href);
      const app = await startApp({ root: example.dir, engines: { databases: 'embedded' }, client: createClient as (o: ClientFactoryOptions) => any });
      const port = Number(new URL(app.url).port);
      expect(await listening(port)).to.equal(true);
      expect((await app.anonymous.health.get()).status).to.equal('ok');
      expect((await app.as({ roles: ['member'], tenant: 'acme' }).tasks.get()).tasks).to.deep.equal([]);
      const refused = await app
        .as({ roles: ['member'], tenant: 'acme' })
        .tasks.post({ title: 'x' })
        .then(
          () => undefined,
          (e: { status?: number }) => e,
        );
      expect(refused?.status).to.equal(403);
      await app.stop();
      await app.stop();
      expect(await listening(port)).to.equal(false);
      // Only what the next app copies stays (the templates, fresh from initdb and migrated; the compiled handlers);
      // this app's data folder is gone.
      const left = fs.readdirSync(path.join(example.dir, '.fw', 'test'));
      expect(left.filter((f) => !/^((pglite|postgres)-template-|migrated-(embedded|native)-[0-9a-f]{16}$|build$)/.test(f))).to.deep.equal([]);
      expect(fs.existsSync(path.join(example.dir, '.fw', 'test', 'build', 'src', 'routes', 'health', 'get.mjs')), 'the handlers it compiled are kept for the next app').to.equal(true);
      const error = await app.drain().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_STOPPED');
    } finally {
      example.remove();
    }
  });
});
