import { expect } from 'chai';
import { appRoleSql } from '@framework-pro/tenancy';
import type { Database } from '@framework/data';
import {
  answer,
  createLocalEmbedder,
  createVectorStore,
  ingestUploads,
  NOT_FOUND_ANSWER,
  vectorStoreMigration,
  type VectorStore,
} from '../../src/index.js';
import { citingModel } from '../support/citing-model.js';
import { corpusFiles, labels, MemoryBucket } from '../support/corpus.js';
import { startVectorDatabase, type VectorDatabase } from '../support/pglite-vector.js';

/** Fraction of the relevant documents among the documents of the top k hits, averaged over the labelled queries. */
async function recallAt(k: number, store: VectorStore, mode: 'hybrid' | 'vector'): Promise<number> {
  let sum = 0;
  for (const { query, relevant } of labels()) {
    const found = new Set((await store.search(query, { collection: 'handbook', k, mode })).map((h) => h.documentId));
    sum += relevant.filter((d) => found.has(d)).length / Math.min(k, relevant.length);
  }
  return sum / labels().length;
}

describe('RAG over the fixture corpus (PGlite + pgvector, local embedder, mock model)', function () {
  this.timeout(120_000);
  let engine: VectorDatabase;
  let db: Database;
  let store: VectorStore;
  const bucket = new MemoryBucket();

  before(async () => {
    engine = await startVectorDatabase();
    await engine.pglite.exec(appRoleSql() + vectorStoreMigration({ dimensions: 384 }).up);
    db = engine.database();
    store = createVectorStore({ db, embedder: createLocalEmbedder({ dimensions: 384 }) });
    for (const file of corpusFiles()) {
      const message = bucket.put(file.name, file.body, file.contentType);
      const [result] = await ingestUploads(message, { store, bucket, collection: 'handbook', chunking: { maxTokens: 64, overlapTokens: 16 } });
      expect(result?.status, file.name).to.equal('indexed');
    }
  });
  after(() => engine?.stop());

  it('ingests every format of the corpus (text, markdown, HTML, PDF) into chunks', async () => {
    const rows = await engine.pglite.query<{ document_id: string; n: number }>('SELECT document_id, count(*)::int AS n FROM fw_ai_chunks GROUP BY document_id ORDER BY document_id');
    expect(rows.rows.map((r) => r.document_id)).to.deep.equal(corpusFiles().map((f) => f.name));
    const pdf = await store.search('wipe restart affected laptop evidence', { collection: 'handbook', k: 1 });
    expect(pdf[0]?.documentId).to.equal('security-incident.pdf');
    const html = await engine.pglite.query<{ content: string }>("SELECT string_agg(content, ' ') AS content FROM fw_ai_chunks WHERE document_id = 'onboarding.html'");
    expect(html.rows[0]!.content).to.contain('onboarding buddy').and.not.contain('<li>').and.not.contain('window.track').and.not.contain('https://');
  });

  it('answers with citations: chunk ids and source documents, only of the chunks retrieved', async () => {
    const model = citingModel(2);
    const result = await answer('What should I do with my laptop after a security incident?', { store, collection: 'handbook', model });
    expect(result.found).to.equal(true);
    expect(model.doGenerateCalls).to.have.length(1);
    expect(result.citations).to.have.length(2);
    expect(result.citations[0]).to.include({ marker: 1, documentId: 'security-incident.pdf', source: 'security-incident.pdf' });
    for (const citation of result.citations) {
      expect(result.sources.map((s) => s.chunkId)).to.include(citation.chunkId);
      expect(result.text).to.contain(`[${citation.marker}]`);
    }
    const stored = await engine.pglite.query<{ document_id: string }>('SELECT document_id FROM fw_ai_chunks WHERE id = $1', [result.citations[0]!.chunkId]);
    expect(stored.rows[0]?.document_id).to.equal('security-incident.pdf');
  });

  it('answers "not found in the sources" without calling the model when retrieval is empty', async () => {
    const model = citingModel();
    const result = await answer('What is the parental leave policy?', { store, collection: 'handbook', filter: { team: 'nobody' }, model });
    expect(result).to.deep.include({ text: NOT_FOUND_ANSWER, found: false, citations: [], sources: [] });
    expect(model.doGenerateCalls).to.have.length(0);
    const empty = await answer('anything', { store, collection: 'no-such-collection', model });
    expect(empty.found).to.equal(false);
    expect(model.doGenerateCalls).to.have.length(0);
  });

  it('hybrid search beats vector-only on keyword queries (recall@5) and ranks keyword matches first more often (recall@1)', async () => {
    // The corpus holds near-miss documents (forms-catalog, form-27-series, form-b-series, error-codes, build-errors,
    // pipeline-alarms): full of "form 27A", "E4417" and the like, they crowd a code's document out of the vector
    // top 5; the full-text half still matches the exact code.
    const hybrid = await recallAt(5, store, 'hybrid');
    const vectorOnly = await recallAt(5, store, 'vector');
    console.log(`      recall@5 on ${labels().length} labelled queries: hybrid ${hybrid.toFixed(3)}, vector-only ${vectorOnly.toFixed(3)}`);
    expect(hybrid).to.be.greaterThan(vectorOnly);
    expect(hybrid).to.be.greaterThan(0.8);
    // At the top of the list the keyword half matters: "E4471", "I lost my badge" rank their document first only with it.
    const hybridTop = await recallAt(1, store, 'hybrid');
    const vectorTop = await recallAt(1, store, 'vector');
    console.log(`      recall@1: hybrid ${hybridTop.toFixed(3)}, vector-only ${vectorTop.toFixed(3)}`);
    expect(hybridTop).to.be.greaterThan(vectorTop);
    const [keyword] = await store.search('E4471', { collection: 'handbook', k: 1 });
    expect(keyword?.documentId).to.equal('deploy-runbook.txt');
  });

  it('does not index a document version twice (a redelivered message reads nothing new), and re-indexes a new version', async () => {
    const message = bucket.put('travel.txt', corpusFiles().find((f) => f.name === 'travel.txt')!.body, 'text/plain');
    const before = await engine.pglite.query<{ id: string }>("SELECT id FROM fw_ai_chunks WHERE document_id = 'travel.txt' ORDER BY ordinal");
    const [again] = await ingestUploads(message, { store, bucket, collection: 'handbook' });
    expect(again?.status).to.equal('unchanged');
    const after = await engine.pglite.query<{ id: string }>("SELECT id FROM fw_ai_chunks WHERE document_id = 'travel.txt' ORDER BY ordinal");
    expect(after.rows).to.deep.equal(before.rows);
    const changed = bucket.put('travel.txt', 'Business travel\n\nAll trains are booked in first class from now on.', 'text/plain');
    const [updated] = await ingestUploads(changed, { store, bucket, collection: 'handbook' });
    expect(updated?.status).to.equal('indexed');
    const text = await engine.pglite.query<{ content: string }>("SELECT content FROM fw_ai_chunks WHERE document_id = 'travel.txt'");
    expect(text.rows.map((r) => r.content)).to.deep.equal(['Business travel\n\nAll trains are booked in first class from now on.']);
  });

});
