import { expect } from 'chai';
import { appRoleSql, disableRowLevelSecurity, enableRowLevelSecurity, runWithTenant, tenantTable } from '@framework-pro/tenancy';
import { sql, type Database, type SqlFragment, type Transaction, type TransactionOptions } from '@framework/data';
import {
  AiUsageError,
  autoEfSearch,
  changeEmbeddingDimensionsMigration,
  createLocalEmbedder,
  createVectorStore,
  EmbeddingMismatchError,
  vectorStoreMigration,
  type Embedder,
} from '../../src/index.js';
import { startNativeVectorEngine, type VectorEngine } from '../support/native-vector.js';
import { startVectorDatabase } from '../support/pglite-vector.js';

const embedder = createLocalEmbedder({ dimensions: 384 });

/** PGlite's pgvector (fw dev, tests) and a native PostgreSQL server's (skipped, saying why, where it has none). */
const ENGINES: readonly { readonly name: string; start(): Promise<VectorEngine | string> }[] = [
  { name: 'PGlite + pgvector', start: startVectorDatabase },
  { name: 'native PostgreSQL + pgvector', start: startNativeVectorEngine },
];

for (const { name, start } of ENGINES) describe(`vector store on ${name}`, function () {
  this.timeout(120_000);
  let engine: VectorEngine;
  let db: Database;

  before(async function () {
    const started = await start();
    if (typeof started === 'string') {
      console.warn(`      skipped on ${name}: ${started}`);
      this.skip();
    }
    engine = started;
    await engine.exec(appRoleSql() + vectorStoreMigration({ dimensions: 384, tenantTable }).up);
    db = engine.database();
    // The tables are tenant tables: every statement runs as a tenant (acme unless a test says otherwise).
    enableRowLevelSecurity();
  });
  after(async () => {
    disableRowLevelSecurity();
    await engine?.stop();
  });
  beforeEach(() => engine.exec('DELETE FROM fw_ai_documents; DELETE FROM fw_ai_embedding_cache;'));

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
      const rows = await engine.query<{ tenant_id: string }>('SELECT tenant_id FROM fw_ai_chunks ORDER BY tenant_id');
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
      const rows = await engine.query<{ embedding_model: string; embedding_dimensions: number }>('SELECT DISTINCT embedding_model, embedding_dimensions FROM fw_ai_chunks');
      expect(rows.rows).to.deep.equal([{ embedding_model: 'local-hashing-v1-384', embedding_dimensions: 384 }]);
      await engine.exec('SET enable_seqscan = off');
      try {
        const vector = `[${(await embedder.embed('topic 3')).join(',')}]`;
        const plan = await engine.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT id FROM fw_ai_chunks ORDER BY embedding <=> '${vector}'::vector LIMIT 5`);
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).to.contain('fw_ai_chunks_embedding_idx');
      } finally {
        await engine.exec('RESET enable_seqscan');
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
      await engine.exec(change.up);
      try {
        const small = createLocalEmbedder({ dimensions: 256 });
        const store = createVectorStore({ db: owner, embedder: small });
        expect(await store.reembed()).to.equal(1);
        expect((await store.search('holiday schedule', { collection: 'kb', mode: 'vector' })).map((h) => h.documentId)).to.deep.equal(['a']);
        // The old 384-dimension embedder no longer fits the column.
        const error = await createVectorStore({ db: owner, embedder }).upsertDocument({ collection: 'kb', documentId: 'b', version: '1', chunks: [{ text: 'x y z' }] }).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(Error);
      } finally {
        await engine.exec('DELETE FROM fw_ai_documents;' + change.down);
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

  it("sets hnsw.ef_search within each search's transaction only (never below the candidates it fetches)", async () => {
    await runWithTenant({ id: 'acme' }, async () => {
      await createVectorStore({ db, embedder }).upsertDocument({ collection: 'kb', documentId: 'a', version: '1', chunks: [{ text: 'The quarterly report is due on Friday' }] });
      // The database as the store sees it, reading the setting in the search's transaction just before its query.
      const seen: string[] = [];
      const watched = new Proxy(db, {
        get(target, key, receiver) {
          if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
          return (fn: (tx: Transaction) => Promise<unknown>, options?: TransactionOptions) =>
            target.transaction(
              (tx) =>
                fn(
                  new Proxy(tx, {
                    get(t, k, r) {
                      if (k !== 'many') return Reflect.get(t, k, r) as unknown;
                      return async (statement: SqlFragment) => {
                        seen.push((await t.one<{ ef: string }>(sql`SELECT current_setting('hnsw.ef_search') AS ef`)).ef);
                        return t.many(statement);
                      };
                    },
                  }),
                ),
              options,
            );
        },
      });
      const search = (options: Parameters<typeof createVectorStore>[0], efSearch?: number | 'auto') => createVectorStore(options).search('quarterly report', { collection: 'kb', k: 5, efSearch });
      expect((await search({ db: watched, embedder })).map((h) => h.documentId)).to.deep.equal(['a']);
      await search({ db: watched, embedder, efSearch: 300 });
      await search({ db: watched, embedder, efSearch: 20, candidates: 64 });
      await search({ db: watched, embedder, efSearch: 300 }, 500); // the search's own wins over the store's
      expect(seen).to.deep.equal(['200', '300', '64', '500']);
      // 'auto' grows with the table's size: the planner's estimate says 100,000 chunks (as ANALYZE would on a large
      // collection), so the search widens to 100,000 / 125 = 800; 10 million would ask more than pgvector's 1000.
      seen.length = 0;
      try {
        await engine.exec("UPDATE pg_class SET reltuples = 100000 WHERE oid = 'fw_ai_chunks'::regclass");
        await search({ db: watched, embedder });
        await search({ db: watched, embedder, efSearch: 300 }, 'auto');
        await engine.exec("UPDATE pg_class SET reltuples = 10000000 WHERE oid = 'fw_ai_chunks'::regclass");
        await search({ db: watched, embedder });
      } finally {
        await engine.exec('ANALYZE fw_ai_chunks');
      }
      expect(seen).to.deep.equal(['800', '800', '1000']);
      expect([autoEfSearch(0, 50), autoEfSearch(25_000, 50), autoEfSearch(60_000, 50), autoEfSearch(100_000, 1200), autoEfSearch(1e7, 50)]).to.deep.equal([200, 200, 480, 1000, 1000]);
      // Outside the transactions (the same pooled connection: one), pgvector's default again.
      expect((await db.one<{ ef: string }>(sql`SELECT current_setting('hnsw.ef_search') AS ef`)).ef).to.equal('40');
    });
  });

  it('refuses an efSearch pgvector would refuse, in the store and in a search', () => {
    for (const efSearch of [0, 1001, 2.5, 'wide']) expect(() => createVectorStore({ db, embedder, efSearch: efSearch as number })).to.throw(AiUsageError, /efSearch must be a whole number from 1 to 1000, or 'auto'/);
    const store = createVectorStore({ db, embedder });
    return runWithTenant({ id: 'acme' }, async () => {
      const error = await store.search('report', { collection: 'kb', efSearch: 5000 }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AiUsageError).with.property('message').that.matches(/search: efSearch must be a whole number from 1 to 1000/);
    });
  });
});
