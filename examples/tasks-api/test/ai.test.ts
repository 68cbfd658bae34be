import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { vectorStoreMigration } from '@framework-pro/ai';
import { tenantTable } from '@framework-pro/tenancy';
import { objectCreatedEvent } from '@framework/storage';
import { startApp, type TestApp } from '@framework/testing';
import { createClient, type Client } from '../src/client.gen.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DAY = 24 * 60 * 60 * 1000;

/**
 * The acceptance of @framework-pro/ai: "what tasks are overdue and why?" answered over the caller's tasks and an
 * attached document, with citations, offline (the local embedder, the example's mock model), the documents indexed by
 * the app's queues (task events; the bucket's upload notifications) before POST /ask retrieves. On the embedded engine
 * (PGlite with pgvector), which every machine has: Debian 12's PostgreSQL has pgvector only where .ci/install-pgvector
 * built it, and the migration skips the AI tables on a server without it.
 */
describe('tasks-api answers questions over its tasks and attachments (POST /ask, PGlite + pgvector)', function () {
  this.timeout(300_000);
  let app: TestApp<Client>;

  before(async () => {
    app = await startApp({ root, client: createClient, engines: { databases: 'embedded' } });
  });
  after(() => app?.stop());
  beforeEach(() => app.resetData());

  const ada = () => app.as({ roles: ['admin'], sub: 'ada', tenant: 'acme' });

  async function attach(taskId: string, fileName: string, text: string): Promise<void> {
    const upload = (await ada().tasks.byId(taskId).attachments.post({ fileName, contentType: 'text/plain' })) as { url: string; fields: Record<string, string> };
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', new Blob([text], { type: 'text/plain' }), fileName);
    const waiting = app.queues['ai-ingest']!.messages().length;
    const posted = await fetch(upload.url, { method: 'POST', body: form });
    expect(posted.status).to.be.within(200, 299);
    // The storage engine announces the upload in the background, as S3 does: wait for its message before draining.
    for (let i = 0; i < 200 && app.queues['ai-ingest']!.messages().length === waiting; i++) await new Promise((r) => setTimeout(r, 50));
    expect(app.queues['ai-ingest']!.messages().length, 'the upload notification reached ai-ingest').to.equal(waiting + 1);
  }

  it('answers "what tasks are overdue and why?" with citations of the overdue task and its attached document', async () => {
    const late = await ada().tasks.post({ title: 'Ship the invoice export' }, { idempotencyKey: 'ai-1' });
    const onTime = await ada().tasks.post({ title: 'Plan the team offsite' }, { idempotencyKey: 'ai-2' });
    await ada().tasks.byId(late.id).due.put({ dueAt: new Date(Date.now() - 3 * DAY).toISOString() });
    await ada().tasks.byId(onTime.id).due.put({ dueAt: new Date(Date.now() + 7 * DAY).toISOString() });
    await attach(late.id, 'status.txt', 'The invoice export is overdue because the payment provider revoked our API key; a new key is expected on Monday.');
    // POST /ask only retrieves: until the queues ran (task-events indexes tasks, ai-ingest the uploaded file), nothing.
    expect((await ada().ask.post({ question: 'what tasks are overdue and why?' })).found).to.equal(false);
    await app.drain();

    const result = await ada().ask.post({ question: 'what tasks are overdue and why?' });

    expect(result.found).to.equal(true);
    const cited = result.citations.map((c) => c.documentId);
    expect(cited).to.include(`task:${late.id}`);
    expect(cited.some((d) => d.endsWith(`/${late.id}/status.txt`))).to.equal(true);
    // The best source is one of the two that answer it (the task on time may follow: it shares words, not the answer).
    expect([`task:${late.id}`, cited.find((d) => d.endsWith('/status.txt'))]).to.include(cited[0]);
    for (const c of result.citations) expect(result.answer).to.contain(`[${c.marker}]`);
    expect(result.answer).to.contain('Task "Ship the invoice export" is open.').and.contain('It is overdue.');
    expect(result.answer).to.contain('revoked our API key');
    const source = result.citations.find((c) => c.documentId === `task:${late.id}`)!;
    expect(source.source).to.equal('task "Ship the invoice export"');
    // The chunk a citation names is in the database, under the caller's tenant.
    const rows = await app.db().query<{ tenant_id: string; document_id: string }>('SELECT tenant_id, document_id FROM fw_ai_chunks WHERE id = $1', [source.chunkId]);
    expect(rows).to.deep.equal([{ tenant_id: 'acme', document_id: `task:${late.id}` }]);
    const fileChunks = () => app.db().query<{ id: string }>("SELECT id FROM fw_ai_chunks WHERE document_id LIKE '%/status.txt' ORDER BY id");
    const before = await fileChunks();
    expect(before.length).to.be.greaterThan(0);

    // The same file uploaded again (same ETag) and its notification redelivered: nothing indexed twice, nothing changed.
    await attach(late.id, 'status.txt', 'The invoice export is overdue because the payment provider revoked our API key; a new key is expected on Monday.');
    const [file] = await app.db().query<{ document_id: string; version: string }>("SELECT document_id, version FROM fw_ai_documents WHERE document_id LIKE '%/status.txt'");
    await app.queues['ai-ingest']!.send(objectCreatedEvent({ bucket: 'attachments', key: file!.document_id, size: 1, etag: file!.version, eventName: 'ObjectCreated:Post', region: 'us-east-1', configurationId: 'redelivered' }));
    await app.drain();
    expect(await fileChunks()).to.deep.equal(before);
    expect(await app.db().query('SELECT count(*)::int AS n FROM fw_ai_documents')).to.deep.equal([{ n: 3 }]);

    // A new version of the file replaces its chunks.
    await attach(late.id, 'status.txt', 'The invoice export is blocked: finance must approve the new payment provider contract.');
    await app.drain();
    const after = await ada().ask.post({ question: 'who must approve the payment provider contract?' });
    expect(after.answer).to.contain('finance must approve').and.not.contain('revoked our API key');
  });

  it("never answers from another tenant's or another user's tasks: theirs is not found in the sources", async () => {
    const late = await ada().tasks.post({ title: 'Renew the certificate' }, { idempotencyKey: 'ai-3' });
    await ada().tasks.byId(late.id).due.put({ dueAt: new Date(Date.now() - DAY).toISOString() });
    await app.drain();
    expect((await ada().ask.post({ question: 'which certificate is overdue?' })).found).to.equal(true);
    for (const other of [app.as({ roles: ['admin'], sub: 'ada', tenant: 'globex' }), app.as({ roles: ['admin'], sub: 'bob', tenant: 'acme' })]) {
      const result = await other.ask.post({ question: 'which certificate is overdue?' });
      expect(result).to.deep.equal({ answer: 'Not found in the sources.', found: false, citations: [] });
    }
  });

  it('refuses an empty question with 400', async () => {
    const error = await ada().ask.post({ question: ' ' }).catch((e: unknown) => e);
    expect((error as { status?: number }).status).to.equal(400);
  });

  it('keeps the vector store migration equal to what the package generates', () => {
    const file = readFileSync(path.join(root, 'migrations', '0040_ai_vector_store.sql'), 'utf8');
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(squash(file)).to.contain(squash(vectorStoreMigration({ dimensions: 384, tenantTable }).up));
  });
});
