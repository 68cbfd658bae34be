/**
 * Vector search in PGlite with pgvector: p50/p99 of a top-10 cosine search through the HNSW index on 100,000 vectors
 * of 384 dimensions (the local embedder's vectors of synthetic sentences), and recall@10 of those answers against
 * exact search (the same query with index scans off) in the same run. Native PostgreSQL + pgvector is measured when
 * the server's extension folder has pgvector; Debian's PostgreSQL package has none, and the run says so.
 *
 * Run: npx projen bench:ai   (BENCH_AI_VECTORS=20000 for a shorter run)
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
  await db.exec('CREATE INDEX items_embedding_idx ON items USING hnsw (embedding vector_cosine_ops)');
  console.log(`built the HNSW index (m 16, ef_construction 64, cosine) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const queries = (await embedder.embedMany(Array.from({ length: QUERIES }, sentence))).map(vectorLiteral);
  const search = `SELECT id FROM items ORDER BY embedding <=> $1::vector LIMIT ${K}`;
  for (const q of queries.slice(0, 10)) await db.query(search, [q]); // warm-up
  const times: number[] = [];
  const approximate: number[][] = [];
  for (const q of queries) {
    const t0 = process.hrtime.bigint();
    const { rows } = await db.query<{ id: number }>(search, [q]);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    approximate.push(rows.map((r) => r.id));
  }
  await db.exec('SET enable_indexscan = off');
  const exactTimes: number[] = [];
  let found = 0;
  for (const [i, q] of queries.entries()) {
    const t0 = process.hrtime.bigint();
    const { rows } = await db.query<{ id: number }>(search, [q]);
    exactTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const exact = new Set(rows.map((r) => r.id));
    found += approximate[i]!.filter((id) => exact.has(id)).length;
  }
  times.sort((a, b) => a - b);
  exactTimes.sort((a, b) => a - b);
  console.log(`PGlite HNSW top-${K} search (ef_search 40), ${QUERIES} queries: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`);
  console.log(`PGlite exact top-${K} search (sequential scan), same queries: p50 ${percentile(exactTimes, 50).toFixed(2)} ms, p99 ${percentile(exactTimes, 99).toFixed(2)} ms`);
  console.log(`recall@${K} of HNSW vs exact: ${(found / (QUERIES * K)).toFixed(3)}; HNSW p50 speed-up over exact: ${(percentile(exactTimes, 50) / percentile(times, 50)).toFixed(1)}x`);
  console.log(`native PostgreSQL + pgvector: not measured, pgvector ${nativePgvector()}`);
  await db.close();
}

await main();
