import { expect } from 'chai';
import { appRoleSql, disableRowLevelSecurity, enableRowLevelSecurity, runWithTenant, tenantTable } from '@framework-pro/tenancy';
import type { Database } from '@framework/data';
import {
  AiUsageError,
  changeEmbeddingDimensionsMigration,
  createLocalEmbedder,
  createVectorStore,
  EmbeddingMismatchError,
  vectorStoreMigration,
  type Embedder,
} from '../../src/index.js';
import { startVectorDatabase, type VectorDatabase } from '../support/pglite-vector.js';

const embedder = createLocalEmbedder({ dimensions: 384 });

describe('vector store on PGlite + pgvector (native PostgreSQL here has no pgvector: not run there)', function () {
  this.timeout(120_000);
  let engine: VectorDatabase;
  let db: Database;

  before(async () => {
    engine = await startVectorDatabase();
    await engine.pglite.exec(appRoleSql() + vectorStoreMigration({ dimensions: 384, tenantTable }).up);
    db = engine.database();
    // The tables are tenant tables: every statement runs as a tenant (acme unless a test says otherwise).
    enableRowLevelSecurity();
  });
  after(async () => {
    disableRowLevelSecurity();
    await engine?.stop();
  });
  beforeEach(() => engine.pglite.exec('DELETE FROM fw_ai_documents; DELETE FROM fw_ai_embedding_cache;'));

  describe('with row-level security (tenant tables)', () => {
    it("never retrieves tenant A's documents for tenant B, whatever the query or filter", async () => {
      const store = createVectorStore({ db, embedder });
      await runWithTenant({ id: 'acme' }, () =>
        store.upsertDocument({ collection: 'docs', documentId: 'plan', version: '1', metadata: { kind: 'plan' }, chunks: [{ text: 'Acme secret launch plan for the rocket skates' }] }),
      );
      await runWithTenant({ id: 'globex' }, () =>
        store.upsertDocument({ collection: 'docs', documentId: 'plan', version: '1', metadata: { kind: 'plan' }, chunks: [{ text: 'Globex quarterly plan for the doomsday device' }] }),
      );
      for (const mode of ['hybrid', 'vector', 'text'] as const) {
        const globex = await runWithTenant({ id: 'globex' }, () => store.search('Acme secret launch plan rocket skates', { collection: 'docs', k: 10, mode, filter: { kind: 'plan' } }));
        expect(globex.map((h) => h.text), mode).to.not.include('Acme secret launch plan for the rocket skates');
        expect(globex.every((h) => h.text.startsWith('Globex')), mode).to.equal(true);
      }
      const acme = await runWithTenant({ id: 'acme' }, () => store.search('plan', { collection: 'docs', k: 10 }));
      expect(acme.map((h) => h.text)).to.deep.equal(['Acme secret launch plan for the rocket skates']);
      // Outside a tenant, nothing: forgetting the tenant hides rows, it never leaks them.
      expect(await store.search('plan', { collection: 'docs', k: 10 })).to.deep.equal([]);
      // Both are there, each with its tenant.
      const rows = await engine.pglite.query<{ tenant_id: string }>('SELECT tenant_id FROM fw_ai_chunks ORDER BY tenant_id');
      expect(rows.rows.map((r) => r.tenant_id)).to.deep.equal(['acme', 'globex']);
    });
  });

  it('filters by metadata (jsonb containment), by collection, and refuses a filter that is not a plain object', async () => {
    await runWithTenant({ id: 'acme' }, async () => {
      const store = createVectorStore({ db: engine.database(), embedder });
      await store.upsertDocument({ collection: 'tasks', documentId: 't1', version: '1', metadata: { status: 'open', owner: 'ada' }, chunks: [{ text: 'Fix the login page' }] });
      await store.upsertDocument({ collection: 'tasks', documentId: 't2', version: '1', metadata: { status: 'done', owner: 'ada' }, chunks: [{ text: 'Fix the signup page' }] });
      await store.upsertDocument({ collection: 'other', documentId: 't3', version: '1', metadata: { status: 'open' }, chunks: [{ text: 'Fix the page' }] });
      expect((await store.search('fix page', { collection: 'tasks', filter: { status: 'open' } })).map((h) => h.documentId)).to.deep.equal(['t1']);
      expect((await store.search('fix page', { collection: 'tasks', filter: { owner: 'ada' } })).map((h) => h.documentId).sort()).to.deep.equal(['t1', 't2']);
      expect((await store.search('fix page', { collection: 'tasks', filter: { owner: 'bob' } }))).to.deep.equal([]);
      const error = await store.search('x', { collection: 'tasks', filter: ['status'] as never }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AiUsageError).and.to.include({ code: 'FW_ERR_AI_USAGE' });
      const badCollection = await store.search('x', { collection: "x'; drop table" }).catch((e: unknown) => e);
      expect(badCollection).to.be.instanceOf(AiUsageError);
    });
  });

  it('records the model and dimension with every vector, and answers vector search through the HNSW index', async () => {
    await runWithTenant({ id: 'acme' }, async () => {
      const store = createVectorStore({ db: engine.database(), embedder });
      const docs = Array.from({ length: 30 }, (_, i) => ({ collection: 'many', documentId: `d${i}`, version: '1', chunks: [{ text: `document number ${i} about topic ${i % 7}` }] }));
      for (const doc of docs) await store.upsertDocument(doc);
      const rows = await engine.pglite.query<{ embedding_model: string; embedding_dimensions: number }>('SELECT DISTINCT embedding_model, embedding_dimensions FROM fw_ai_chunks');
      expect(rows.rows).to.deep.equal([{ embedding_model: 'local-hashing-v1-384', embedding_dimensions: 384 }]);
      await engine.pglite.exec('SET enable_seqscan = off');
      try {
        const vector = `[${(await embedder.embed('topic 3')).join(',')}]`;
        const plan = await engine.pglite.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT id FROM fw_ai_chunks ORDER BY embedding <=> '${vector}'::vector LIMIT 5`);
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).to.contain('fw_ai_chunks_embedding_idx');
      } finally {
        await engine.pglite.exec('RESET enable_seqscan');
      }
    });
  });

  it('re-embeds chunks of another model: vector search skips them until `reembed` ran', async () => {
    await runWithTenant({ id: 'acme' }, async () => {
      const old: Embedder = { ...createLocalEmbedder({ dimensions: 384 }), modelId: 'old-model' };
      await createVectorStore({ db: engine.database(), embedder: old }).upsertDocument({ collection: 'kb', documentId: 'a', version: '1', chunks: [{ text: 'The quarterly report is due on Friday' }] });
      const store = createVectorStore({ db: engine.database(), embedder });
      expect(await store.search('quarterly report', { collection: 'kb', mode: 'vector' })).to.deep.equal([]);
      expect((await store.search('quarterly report', { collection: 'kb', mode: 'text' })).map((h) => h.documentId)).to.deep.equal(['a']);
      expect(await store.reembed()).to.equal(1);
      expect((await store.search('quarterly report', { collection: 'kb', mode: 'vector' })).map((h) => h.documentId)).to.deep.equal(['a']);
      expect(await store.reembed()).to.equal(0);
    });
  });

  it('changes the dimension by migration: vectors dropped, then re-embedded with the new model', async () => {
    await runWithTenant({ id: 'acme' }, async () => {
      const owner = engine.database();
      await createVectorStore({ db: owner, embedder }).upsertDocument({ collection: 'kb', documentId: 'a', version: '1', chunks: [{ text: 'Holiday schedule for December' }] });
      const change = changeEmbeddingDimensionsMigration(256, 384);
      await engine.pglite.exec(change.up);
      try {
        const small = createLocalEmbedder({ dimensions: 256 });
        const store = createVectorStore({ db: owner, embedder: small });
        expect(await store.reembed()).to.equal(1);
        expect((await store.search('holiday schedule', { collection: 'kb', mode: 'vector' })).map((h) => h.documentId)).to.deep.equal(['a']);
        // The old 384-dimension embedder no longer fits the column.
        const error = await createVectorStore({ db: owner, embedder }).upsertDocument({ collection: 'kb', documentId: 'b', version: '1', chunks: [{ text: 'x y z' }] }).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(Error);
      } finally {
        await engine.pglite.exec('DELETE FROM fw_ai_documents;' + change.down);
      }
    });
  });

  it('refuses an embedder that answers with vectors of another dimension than it declares', async () => {
    await runWithTenant({ id: 'acme' }, async () => {
      const liar: Embedder = { modelId: 'liar', dimensions: 384, embed: async () => [1, 2, 3], embedMany: async (texts) => texts.map(() => [1, 2, 3]) };
      const error = await createVectorStore({ db: engine.database(), embedder: liar }).upsertDocument({ collection: 'kb', documentId: 'a', version: '1', chunks: [{ text: 'hello' }] }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(EmbeddingMismatchError).and.to.include({ code: 'FW_ERR_AI_EMBEDDING_MISMATCH' });
    });
  });
});
