import { createHash } from 'node:crypto';
import { sql, type Database } from '@framework/data';
import { AiUsageError, EmbeddingMismatchError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { parseVector, vectorLiteral } from './vector-text.js';

export interface CachedEmbedderOptions {
  /** The app's database: vectors are kept in `fw_ai_embedding_cache` (created by `vectorStoreMigration`). */
  readonly db: Database;
  /**
   * Texts sent to the model per call, for those not in the cache.
   * @default 64
   */
  readonly batchSize?: number;
}

/** SHA-256 of the text: the cache key, with the model and the dimension. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Wraps an embedder with a cache in the app's PostgreSQL keyed by (model, dimension, SHA-256 of the text): a text
 * seen before (a re-ingested document whose paragraphs did not change, the same question twice) is not sent to the
 * model again. Texts are embedded in batches of `batchSize`, and each text once per call even when it repeats.
 */
export function cachedEmbedder(embedder: Embedder, options: CachedEmbedderOptions): Embedder & { readonly stats: { hits: number; misses: number } } {
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new AiUsageError(`cachedEmbedder: batchSize must be a positive whole number, got ${String(batchSize)}`);
  const { db } = options;
  const stats = { hits: 0, misses: 0 };
  const embedMany = async (texts: readonly string[]): Promise<number[][]> => {
    if (texts.length === 0) return [];
    const hashes = texts.map(contentHash);
    const unique = [...new Set(hashes)];
    const found = new Map<string, number[]>();
    const rows = await db.many<{ content_hash: string; embedding: string }>(
      sql`SELECT content_hash, embedding::text AS embedding FROM fw_ai_embedding_cache WHERE model = ${embedder.modelId} AND dimensions = ${embedder.dimensions} AND content_hash = ANY(${unique})`,
    );
    for (const row of rows) found.set(row.content_hash, parseVector(row.embedding));
    const missing = unique.filter((hash) => !found.has(hash));
    stats.hits += unique.length - missing.length;
    stats.misses += missing.length;
    const textOf = new Map(hashes.map((hash, i) => [hash, texts[i]!]));
    for (let i = 0; i < missing.length; i += batchSize) {
      const batch = missing.slice(i, i + batchSize);
      const vectors = await embedder.embedMany(batch.map((hash) => textOf.get(hash)!));
      if (vectors.length !== batch.length) throw new EmbeddingMismatchError(`${embedder.modelId} returned ${vectors.length} vectors for ${batch.length} texts`);
      batch.forEach((hash, j) => found.set(hash, vectors[j]!));
      await db.query(sql`
        INSERT INTO fw_ai_embedding_cache (model, dimensions, content_hash, embedding)
        SELECT ${embedder.modelId}, ${embedder.dimensions}, h, v::vector FROM unnest(${batch}::text[], ${vectors.map(vectorLiteral)}::text[]) AS t(h, v)
        ON CONFLICT DO NOTHING`);
    }
    return hashes.map((hash) => found.get(hash)!);
  };
  return {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    stats,
    embedMany,
    embed: async (text) => (await embedMany([text]))[0]!,
  };
}
