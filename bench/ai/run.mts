/**
 * Vector search with pgvector in PGlite and in a native PostgreSQL server: p50/p99 of a top-10 cosine search through
 * the HNSW index on 100,000 vectors of 384 dimensions (the local embedder's vectors of synthetic sentences) at the
 * vector store's automatic `hnsw.ef_search` and at other widths, and recall@10 of those answers against exact search
 * (the same query with index scans off) in the same run and engine. The native server is Debian's PostgreSQL started
 * for the run, with pgvector built from Debian's source package (`.ci/install-pgvector`); without it the run says why.
 *
 * Run: npx projen bench:ai   (BENCH_AI_VECTORS=20000 for a shorter run; BENCH_AI_EF_SEARCH=100,200 for other widths;
 * BENCH_AI_M, BENCH_AI_EF_CONSTRUCTION for the index's build parameters; BENCH_AI_ENGINES=pglite or native for one)
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { vector } from '@electric-sql/pglite-pgvector';
import { autoEfSearch, createLocalEmbedder, vectorLiteral } from '../../packages/pro-ai/src/index.js';
import { startNativeVectorEngine, type VectorEngine } from '../../packages/pro-ai/test/support/native-vector.js';

const VECTORS = Number(process.env['BENCH_AI_VECTORS'] ?? 100_000);
const DIMENSIONS = 384;
const QUERIES = 100;
const K = 10;
/** The index's build parameters (pgvector's defaults are m 16, ef_construction 64). */
const M = Number(process.env['BENCH_AI_M'] ?? 16);
const EF_CONSTRUCTION = Number(process.env['BENCH_AI_EF_CONSTRUCTION'] ?? 64);
/** The `hnsw.ef_search` values measured besides the store's automatic one: pgvector's default (40), and others. */
const EF_SEARCH = (process.env['BENCH_AI_EF_SEARCH'] ?? '40,200,400,1000').split(',').map(Number);

/** A deterministic pseudo-random generator (mulberry32): the same corpus on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'vo', 'pe', 'du', 'ga', 'zo', 'be', 'fi', 'ho', 'ju'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** How the bench talks to an engine: statements as the owner, in one session (a `SET` holds for the next query). */
interface Engine {
  readonly name: string;
  exec(text: string): Promise<void>;
  query<T>(text: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}

/** Loads the corpus, builds the index, then times exact search and HNSW search at each width on `engine`. */
async function measure(engine: Engine): Promise<void> {
  const next = random(42); // the same corpus and queries on every engine
  const words = Array.from({ length: 3000 }, () => Array.from({ length: 2 + Math.floor(next() * 3) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  const sentence = () => Array.from({ length: 6 + Math.floor(next() * 8) }, () => words[Math.floor(Math.pow(next(), 2) * words.length)]).join(' ');
  const embedder = createLocalEmbedder({ dimensions: DIMENSIONS });
  await engine.exec(`CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE items (id int PRIMARY KEY, embedding vector(${DIMENSIONS}))`);
  let started = Date.now();
  for (let i = 0; i < VECTORS; i += 1000) {
    const texts = Array.from({ length: Math.min(1000, VECTORS - i) }, sentence);
    const vectors = (await embedder.embedMany(texts)).map(vectorLiteral);
    await engine.query('INSERT INTO items SELECT $1::int + o - 1, v::vector FROM unnest($2::text[]) WITH ORDINALITY AS t(v, o)', [i, vectors]);
  }
  console.log(`${engine.name}: loaded ${VECTORS} vectors of ${DIMENSIONS} dimensions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  await engine.exec("SET maintenance_work_mem = '1GB'");
  await engine.exec(`CREATE INDEX items_embedding_idx ON items USING hnsw (embedding vector_cosine_ops) WITH (m = ${M}, ef_construction = ${EF_CONSTRUCTION})`);
  console.log(`${engine.name}: built the HNSW index (m ${M}, ef_construction ${EF_CONSTRUCTION}, cosine) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const queries = (await embedder.embedMany(Array.from({ length: QUERIES }, sentence))).map(vectorLiteral);
  const search = `SELECT id FROM items ORDER BY embedding <=> $1::vector LIMIT ${K}`;
  const timed = async (q: string): Promise<{ ms: number; ids: number[] }> => {
    const t0 = process.hrtime.bigint();
    const { rows } = await engine.query<{ id: number }>(search, [q]);
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, ids: rows.map((r) => r.id) };
  };
  // Exact answers first (index scans off: a sequential scan sorts every distance), the anchor of every ratio below.
  await engine.exec('SET enable_indexscan = off');
  for (const q of queries.slice(0, 10)) await engine.query(search, [q]); // warm-up
  const exact: Set<number>[] = [];
  const exactTimes: number[] = [];
  for (const q of queries) {
    const r = await timed(q);
    exactTimes.push(r.ms);
    exact.push(new Set(r.ids));
  }
  exactTimes.sort((a, b) => a - b);
  console.log(`${engine.name} exact top-${K} search (sequential scan), ${QUERIES} queries: p50 ${percentile(exactTimes, 50).toFixed(2)} ms, p99 ${percentile(exactTimes, 99).toFixed(2)} ms`);
  await engine.exec('SET enable_indexscan = on');
  // The vector store's default ('auto') for this many vectors and its 50 candidates, then the widths asked for.
  const auto = autoEfSearch(VECTORS, 50);
  for (const ef of [auto, ...EF_SEARCH.filter((e) => e !== auto)]) {
    await engine.exec(`SET hnsw.ef_search = ${ef}`);
    for (const q of queries.slice(0, 10)) await engine.query(search, [q]); // warm-up
    const times: number[] = [];
    let found = 0;
    for (const [i, q] of queries.entries()) {
      const r = await timed(q);
      times.push(r.ms);
      found += r.ids.filter((id) => exact[i]!.has(id)).length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${engine.name} HNSW top-${K} search, ef_search ${ef}${ef === auto ? " (the store's 'auto' default)" : ''}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms; ` +
        `recall@${K} vs exact ${(found / (QUERIES * K)).toFixed(3)}; p50 / exact p50 ${(percentile(times, 50) / percentile(exactTimes, 50)).toFixed(3)}; p99 / exact p99 ${(percentile(times, 99) / percentile(exactTimes, 99)).toFixed(3)}`,
    );
  }
}

async function main(): Promise<void> {
  const engines = (process.env['BENCH_AI_ENGINES'] ?? 'pglite,native').split(',');
  if (engines.includes('pglite')) {
    const db = await PGlite.create({ extensions: { vector } });
    try {
      await measure({ name: 'PGlite', exec: async (text) => void (await db.exec(text)), query: (text, params) => db.query(text, params as unknown[]) });
    } finally {
      await db.close();
    }
  }
  if (engines.includes('native')) {
    // Debian's PostgreSQL started for the run; pgvector built from Debian's source package by .ci/install-pgvector.
    const native = await startNativeVectorEngine();
    if (typeof native === 'string') console.log(`native PostgreSQL + pgvector: not measured, ${native}`);
    else await measureNative(native);
  }
}

/**
 * The native server, restarted with `shared_buffers` of 1 GB (the test server's default is 128 MB, less than the
 * 100,000-vector HNSW index, about 200 MB: pgvector's guidance, and any production server, keeps the index in
 * memory), then measured; stopped at the end (the test support stops its server from mocha's root hook, which a
 * bench has not).
 */
async function measureNative(native: VectorEngine): Promise<void> {
  const { rows } = await native.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
  const dataDir = rows[0]!.dir;
  const pgCtl = path.join(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim(), 'pg_ctl');
  // stdio ignored: a server started by pg_ctl would otherwise hold this process's pipe open.
  const asOwner = (args: string[]) => void (process.getuid?.() === 0 ? execFileSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { stdio: 'ignore' }) : execFileSync(pgCtl, args, { stdio: 'ignore' }));
  await native.exec("ALTER SYSTEM SET shared_buffers = '1GB'");
  asOwner(['-D', dataDir, '-l', path.join(path.dirname(dataDir), 'server.log'), '-w', '-m', 'fast', 'restart']);
  const client = new pg.Client(native.connection);
  await client.connect();
  try {
    const shared = await client.query<{ shared_buffers: string }>('SHOW shared_buffers');
    await measure({
      name: `native PostgreSQL (shared_buffers ${shared.rows[0]!.shared_buffers})`,
      exec: async (text) => void (await client.query(text)),
      query: async <T,>(text: string, params?: readonly unknown[]) => ({ rows: (await client.query(text, params as unknown[])).rows as T[] }),
    });
  } finally {
    await client.end();
    await native.stop().catch(() => undefined);
    asOwner(['-D', dataDir, '-w', '-m', 'immediate', 'stop']);
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
}

await main();
