import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ApiError } from '@framework/runtime/client';
import { startApp, type TestApp } from '@framework/testing';
import { createClient, type Client } from '../src/client.gen.js';

/**
 * The app through @framework/testing: fw dev inside this process (its own data folder under .fw/test/, never the one
 * `npm run dev` uses), users signed in by role, the cron and the queue driven by the test's clock, and a database
 * put back as the migrations left it before each test.
 */
describe('tasks-api with @framework/testing', function () {
  this.timeout(180_000);
  let app: TestApp<Client>;

  before(async () => {
    app = await startApp({ root: path.dirname(path.dirname(fileURLToPath(import.meta.url))), client: createClient });
  });
  after(() => app?.stop());
  beforeEach(() => app.resetData());

  it('members read, admins write: a member creating a task is refused with 403 INSUFFICIENT_SCOPE', async () => {
    const created = await app.as({ roles: ['admin'], sub: 'ada', tenant: 'acme' }).tasks.post({ title: 'Plan the release' }, { idempotencyKey: randomUUID() });
    expect(created).to.include({ title: 'Plan the release', status: 'open' });
    expect((await app.as({ roles: ['member'], sub: 'ada', tenant: 'acme' }).tasks.get()).tasks.map((t) => t.id)).to.deep.equal([created.id]);
    const refused = await app
      .as({ roles: ['member'], tenant: 'acme' })
      .tasks.post({ title: 'not allowed' }, { idempotencyKey: randomUUID() })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).to.be.instanceOf(ApiError).with.property('status', 403);
  });

  it('a created task reaches the task-events consumer once the queue is drained', async () => {
    const created = await app.as({ roles: ['admin'], tenant: 'acme' }).tasks.post({ title: 'Queued' }, { idempotencyKey: randomUUID() });
    await app.drain();
    // The consumer ran as the tenant the message carried: the event row is acme's.
    expect(await app.db().query('SELECT task_id, type, tenant_id FROM task_events')).to.deep.equal([{ task_id: created.id, type: 'task.created', tenant_id: 'acme' }]);
  });

  it('a malformed event ends in the dead-letter queue', async () => {
    const body = JSON.stringify({ type: 'task.archived', taskId: randomUUID() });
    await app.queues['task-events']!.send(body);
    await app.drain();
    expect(app.queues['task-events']!.deadLetters().map((d) => d.body)).to.include(body);
  });

  it('the daily summary runs at 07:00 UTC and counts the tasks', async () => {
    // Two tenants' tasks: the summary counts across tenants (asAllTenants, logged).
    await app.db().seed('tasks', [{ owner: 'ada', title: 'one', tenant_id: 'acme' }, { owner: 'ada', title: 'two', status: 'done', tenant_id: 'globex' }]);
    const trace = await app.clock.advance('1d');
    expect(trace.filter((t) => t.kind === 'cron' && t.id === 'daily-summary' && t.ok).map((t) => t.time.slice(11))).to.deep.equal(['07:00:00.000Z']);
    const summary = app.logs().find((l) => l.entry?.message === 'daily task summary');
    expect(summary?.line).to.contain('"open":1').and.contain('"done":1');
  });
});
