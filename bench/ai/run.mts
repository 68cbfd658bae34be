/**
 * Vector search in PGlite with pgvector: p50/p99 of a top-10 cosine search through the HNSW index on 100,000 vectors
 * of 384 dimensions (the local embedder's vectors of synthetic sentences) at several `hnsw.ef_search` widths, and
 * recall@10 of those answers against exact search (the same query with index scans off) in the same run. Native
 * PostgreSQL + pgvector is not measured: the run says whether the server has pgvector (Debian 12's archive has no
 * pgvector package).
 *
 * Run: npx projen bench:ai   (BENCH_AI_VECTORS=20000 for a shorter run; BENCH_AI_EF_SEARCH=100,200 for other widths;
 * BENCH_AI_M, BENCH_AI_EF_CONSTRUCTION for the index's build parameters)
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { createLocalEmbedder, vectorLiteral } from '../../packages/pro-ai/src/index.js';

const VECTORS = Number(process.env['BENCH_AI_VECTORS'] ?? 100_000);
const DIMENSIONS = 384;
const QUERIES = 100;
const K = 10;
/** The index's build parameters (pgvector's defaults are m 16, ef_construction 64). */
const M = Number(process.env['BENCH_AI_M'] ?? 16);
const EF_CONSTRUCTION = Number(process.env['BENCH_AI_EF_CONSTRUCTION'] ?? 64);
/** The `hnsw.ef_search` values measured: pgvector's default (40) and the vector store's (100), and wider ones. */
const EF_SEARCH = (process.env['BENCH_AI_EF_SEARCH'] ?? '40,100,200,400,800').split(',').map(Number);

/** A deterministic pseudo-random generator (mulberry32): the same corpus on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'vo', 'pe', 'du', 'ga', 'zo', 'be', 'fi', 'ho', 'ju'];
const VOCABULARY = Array.from({ length: 3000 }, () => Array.from({ length: 2 + Math.floor(next() * 3) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
const sentence = () => Array.from({ length: 6 + Math.floor(next() * 8) }, () => VOCABULARY[Math.floor(Math.pow(next(), 2) * VOCABULARY.length)]).join(' ');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function nativePgvector(): string {
  try {
    const share = execFileSync('pg_config', ['--sharedir'], { encoding: 'utf8' }).trim();
    return existsSync(path.join(share, 'extension', 'vector.control')) ? 'installed' : `not installed (${share}/extension has no vector.control; Debian's PostgreSQL package ships no pgvector)`;
  } catch {
    return 'no native PostgreSQL (pg_config not on PATH)';
  }
}

async function main(): Promise<void> {
  const embedder = createLocalEmbedder({ dimensions: DIMENSIONS });
  const db = await PGlite.create({ extensions: { vector } });
  await db.exec(`CREATE EXTENSION vector; CREATE TABLE items (id int PRIMARY KEY, embedding vector(${DIMENSIONS}))`);
  let started = Date.now();
  for (let i = 0; i < VECTORS; i += 1000) {
    const texts = Array.from({ length: Math.min(1000, VECTORS - i) }, sentence);
    const vectors = (await embedder.embedMany(texts)).map(vectorLiteral);
    await db.query('INSERT INTO items SELECT $1::int + o - 1, v::vector FROM unnest($2::text[]) WITH ORDINALITY AS t(v, o)', [i, vectors]);
  }
  console.log(`loaded ${VECTORS} vectors of ${DIMENSIONS} dimensions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  await db.exec("SET maintenance_work_mem = '1GB'");
  await db.exec(`CREATE INDEX items_embedding_idx ON items USING hnsw (embedding vector_cosine_ops) WITH (m = ${M}, ef_construction = ${EF_CONSTRUCTION})`);
  console.log(`built the HNSW index (m ${M}, ef_construction ${EF_CONSTRUCTION}, cosine) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const queries = (await embedder.embedMany(Array.from({ length: QUERIES }, sentence))).map(vectorLiteral);
  const search = `SELECT id FROM items ORDER BY embedding <=> $1::vector LIMIT ${K}`;
  const timed = async (q: string): Promise<{ ms: number; ids: number[] }> => {
    const t0 = process.hrtime.bigint();
    const { rows } = await db.query<{ id: number }>(search, [q]);
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, ids: rows.map((r) => r.id) };
  };
  // Exact answers first (index scans off: a sequential scan sorts every distance), the anchor of every ratio below.
  await db.exec('SET enable_indexscan = off');
  for (const q of queries.slice(0, 10)) await db.query(search, [q]); // warm-up
  const exact: Set<number>[] = [];
  const exactTimes: number[] = [];
  for (const q of queries) {
    const r = await timed(q);
    exactTimes.push(r.ms);
    exact.push(new Set(r.ids));
  }
  exactTimes.sort((a, b) => a - b);
  console.log(`PGlite exact top-${K} search (sequential scan), ${QUERIES} queries: p50 ${percentile(exactTimes, 50).toFixed(2)} ms, p99 ${percentile(exactTimes, 99).toFixed(2)} ms`);
  await db.exec('SET enable_indexscan = on');
  for (const ef of EF_SEARCH) {
    await db.exec(`SET hnsw.ef_search = ${ef}`);
    for (const q of queries.slice(0, 10)) await db.query(search, [q]); // warm-up
    const times: number[] = [];
    let found = 0;
    for (const [i, q] of queries.entries()) {
      const r = await timed(q);
      times.push(r.ms);
      found += r.ids.filter((id) => exact[i]!.has(id)).length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `PGlite HNSW top-${K} search, ef_search ${ef}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms; ` +
        `recall@${K} vs exact ${(found / (QUERIES * K)).toFixed(3)}; p99 / exact p99 ${(percentile(times, 99) / percentile(exactTimes, 99)).toFixed(3)}`,
    );
  }
  console.log(`native PostgreSQL + pgvector: not measured, pgvector ${nativePgvector()}`);
  await db.close();
}

await main();
