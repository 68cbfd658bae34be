import { sql, type SqlFragment } from '@framework/data';
import { AiUsageError } from '../errors.js';

/**
 * The widest `hnsw.ef_search` pgvector accepts.
 */
export const MAX_EF_SEARCH = 1000;

/** The narrowest automatic search: 200 found 95% of the true top 10 at 20,000 vectors in the package's benchmark. */
export const MIN_AUTO_EF_SEARCH = 200;

/**
 * Rows of the HNSW graph per unit of automatic `ef_search`: 100,000 vectors get 800, which found 97% of the true top
 * 10 in the benchmark (400 found 92%). The graph's walk needs a wider beam as it grows (more layers, more near ties).
 */
export const AUTO_EF_SEARCH_ROWS_PER_STEP = 125;

/**
 * The `hnsw.ef_search` the vector store uses when it is not given one: wide enough for the candidates it fetches,
 * and growing with the number of vectors in the index (`rows`), from 200 up to pgvector's limit of 1000 (reached at
 * 125,000 vectors; larger collections get 1000 and a lower recall: see the README's Benchmark).
 */
export function autoEfSearch(rows: number, fetched: number): number {
  return Math.min(MAX_EF_SEARCH, Math.max(MIN_AUTO_EF_SEARCH, fetched, Math.ceil(Math.max(rows, 0) / AUTO_EF_SEARCH_ROWS_PER_STEP)));
}

/** `efSearch` as the store and a search take it: a whole number pgvector accepts, or `'auto'`. */
export function checkEfSearch(value: unknown, where: string): number | 'auto' {
  if (value === undefined || value === 'auto') return 'auto';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_EF_SEARCH) {
    throw new AiUsageError(`${where}: efSearch must be a whole number from 1 to ${MAX_EF_SEARCH}, or 'auto', got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * The SQL value of `hnsw.ef_search` for a search fetching `fetched` rows. `'auto'` is `autoEfSearch` computed by the
 * database in the search's own transaction (no extra round trip) from the chunks table's size: the live rows the
 * statistics count (all tenants: the graph holds them all, whatever row-level security lets this search see), or the
 * planner's estimate when larger.
 */
export function efSearchSql(efSearch: number | 'auto', fetched: number): SqlFragment {
  if (efSearch !== 'auto') return sql`${String(Math.min(MAX_EF_SEARCH, Math.max(efSearch, fetched)))}`;
  return sql`(SELECT LEAST(${MAX_EF_SEARCH}::float8, GREATEST(${MIN_AUTO_EF_SEARCH}::float8, ${fetched}::float8,
    ceil(GREATEST(pg_stat_get_live_tuples(c.oid)::float8, c.reltuples::float8, 0) / ${AUTO_EF_SEARCH_ROWS_PER_STEP}::float8)))::int::text
    FROM pg_class c WHERE c.oid = 'fw_ai_chunks'::regclass)`;
}
