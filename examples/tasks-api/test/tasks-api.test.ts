import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ApiError } from '@framework/runtime/client';
import { createClient, type Client } from '../src/client.gen.js';
import { startFwDev, type FwDev } from './fw-dev.js';

/** What a call threw, as an ApiError (fails the test when it resolved or threw something else). */
async function apiError(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) return expect.fail(`expected an ApiError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).to.be.instanceOf(ApiError);
  return outcome.error as ApiError;
}

/** The app's API through its generated client (src/client.gen.ts), on fw dev. */
describe('tasks-api through its typed client', function () {
  this.timeout(180_000);
  let dev: FwDev;
  let writer: Client;
  let reader: Client;
  let admin: Client;

  before(async () => {
    dev = await startFwDev();
    // Each run is its own user, so the tasks of earlier runs never show.
    const user = `test-${randomUUID()}`;
    // Everyone here belongs to the tenant acme (the app is multi-tenant: test/tenancy.test.ts covers the isolation).
    writer = createClient({ baseUrl: dev.url, token: await dev.token(user, ['tasks:read', 'tasks:write'], 'acme') });
    const readToken = await dev.token(user, ['tasks:read'], 'acme');
    reader = createClient({ baseUrl: dev.url, token: async () => readToken });
    admin = createClient({ baseUrl: dev.url, token: await dev.token(`admin-${randomUUID()}`, ['tasks:read', 'tasks:write', 'tasks:admin'], 'acme') });
  });
  after(async () => dev?.stop());

  it('GET /health answers without a token', async () => {
    const health = await createClient({ baseUrl: dev.url }).health.get();
    expect(health.status).to.equal('ok');
    expect(health.requestId).to.be.a('string');
  });

  it('creates a task (201, idempotent with the same key), reads it back, updates it, filters by status, and an admin deletes it', async () => {
    const key = randomUUID();
    const created = await writer.tasks.post({ title: '  Write the tests  ' }, { idempotencyKey: key });
    expect(created).to.include({ title: 'Write the tests', status: 'open' });
    const again = await writer.tasks.post({ title: '  Write the tests  ' }, { idempotencyKey: key });
    expect(again.id).to.equal(created.id);

    expect((await reader.tasks.get()).tasks.map((t) => t.id)).to.deep.equal([created.id]);
    const updated = await writer.tasks.byId(created.id).put({ status: 'done' });
    expect(updated).to.include({ id: created.id, title: 'Write the tests', status: 'done' });
    expect((await reader.tasks.get({ query: { status: 'done' } })).tasks.map((t) => t.id)).to.deep.equal([created.id]);
    expect((await reader.tasks.get({ query: { status: 'open' } })).tasks).to.deep.equal([]);

    // Admins only: the owner's token lacks tasks:admin; the admin's DELETE is a 204, which the client resolves to undefined
    expect((await apiError(writer.tasks.byId(created.id).delete())).code).to.equal('INSUFFICIENT_SCOPE');
    expect(await admin.tasks.byId(created.id).delete()).to.equal(undefined);
    expect((await reader.tasks.get()).tasks).to.deep.equal([]);
  });

  it('surfaces a 400 VALIDATION_FAILED with every issue as an ApiError', async () => {
    const error = await apiError(writer.tasks.post({ title: '' }));
    expect([error.status, error.code]).to.deep.equal([400, 'VALIDATION_FAILED']);
    expect(error.issues.map((i) => [i.in, i.path.join('.')])).to.deep.equal([['body', 'title']]);
    expect(error.requestId).to.be.a('string');
    const query = await apiError(reader.tasks.get({ query: { status: 'closed' as 'open' } }));
    expect(query.issues.map((i) => [i.in, i.path.join('.')])).to.deep.equal([['query', 'status']]);
  });

  it('answers 403 INSUFFICIENT_SCOPE to a token without tasks:write, 401 to none, 404 to an unknown task', async () => {
    const forbidden = await apiError(reader.tasks.post({ title: 'not allowed' }));
    expect([forbidden.status, forbidden.code]).to.deep.equal([403, 'INSUFFICIENT_SCOPE']);
    expect(forbidden.message).to.contain('tasks:write');
    const anonymous = await apiError(createClient({ baseUrl: dev.url }).tasks.get());
    expect([anonymous.status, anonymous.code]).to.deep.equal([401, 'UNAUTHORIZED']);
    const missing = await apiError(writer.tasks.byId(randomUUID()).put({ title: 'nobody' }));
    expect([missing.status, missing.code]).to.deep.equal([404, 'NOT_FOUND']);
  });
});
