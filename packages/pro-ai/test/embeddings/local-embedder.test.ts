import { expect } from 'chai';
import { embed, embedMany } from 'ai';
import { AiUsageError, cachedEmbedder, createLocalEmbedder, vectorStoreMigration, type Embedder } from '../../src/index.js';
import { startVectorDatabase, type VectorDatabase } from '../support/pglite-vector.js';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('local embedder (feature hashing)', () => {
  const embedder = createLocalEmbedder({ dimensions: 384 });

  it('is deterministic, L2-normalised, of the declared dimension, and names its model with it', async () => {
    const [a, b] = [await embedder.embed('Overdue tasks need an owner'), await createLocalEmbedder().embed('Overdue tasks need an owner')];
    expect(a).to.deep.equal(b);
    expect(a).to.have.length(384);
    expect(Math.sqrt(cosine(a, a))).to.be.closeTo(1, 1e-6);
    expect(embedder.modelId).to.equal('local-hashing-v1-384');
    expect(await createLocalEmbedder({ dimensions: 64 }).embed('x y')).to.have.length(64);
    expect(await embedder.embed('the and of')).to.deep.equal(new Array(384).fill(0));
  });

  it('puts texts that share words closer than texts that do not', async () => {
    const [query, near, far] = await embedder.embedMany(['which tasks are overdue', 'the task "ship v2" is overdue since Friday', 'lunch menu for the office party']);
    expect(cosine(query!, near!)).to.be.greaterThan(cosine(query!, far!) + 0.2);
  });

  it('works as an ai SDK embedding model (embed, embedMany)', async () => {
    const { embedding } = await embed({ model: embedder, value: 'overdue' });
    expect(embedding).to.deep.equal(await embedder.embed('overdue'));
    const { embeddings } = await embedMany({ model: embedder, values: ['a b c', 'd e f'] });
    expect(embeddings).to.deep.equal(await embedder.embedMany(['a b c', 'd e f']));
  });

  it('refuses a dimension it cannot make', () => {
    expect(() => createLocalEmbedder({ dimensions: 3 })).to.throw(AiUsageError, /dimensions/);
  });
});

describe('cached embedder (PGlite + pgvector)', function () {
  this.timeout(120_000);
  let engine: VectorDatabase;
  before(async () => {
    engine = await startVectorDatabase();
    await engine.pglite.exec(vectorStoreMigration().up);
  });
  after(() => engine?.stop());

  it('sends each text to the model once, in batches, and answers repeats from the cache', async () => {
    const local = createLocalEmbedder();
    const calls: number[] = [];
    const counting: Embedder = { ...local, embedMany: (texts) => (calls.push(texts.length), local.embedMany(texts)) };
    const cached = cachedEmbedder(counting, { db: engine.database(), batchSize: 2 });
    const texts = ['one', 'two', 'three', 'two', 'four', 'five'];
    const first = await cached.embedMany(texts);
    expect(first).to.deep.equal(await local.embedMany(texts));
    expect(calls).to.deep.equal([2, 2, 1]);
    expect(cached.stats).to.deep.equal({ hits: 0, misses: 5 });
    const again = await cached.embedMany(['five', 'one', 'six']);
    expect(again).to.deep.equal(await local.embedMany(['five', 'one', 'six']));
    expect(calls).to.deep.equal([2, 2, 1, 1]);
    expect(cached.stats).to.deep.equal({ hits: 2, misses: 6 });
    const rows = await engine.pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM fw_ai_embedding_cache');
    expect(rows.rows[0]!.n).to.equal(6);
  });
});
