import type { EmbeddingModelV3, EmbeddingModelV3CallOptions, EmbeddingModelV3Result } from '@ai-sdk/provider';
import { AiUsageError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { hashedFeatures } from './feature-hashing.js';

export interface LocalEmbedderOptions {
  /**
   * Length of every vector.
   * @default 384
   */
  readonly dimensions?: number;
}

/** The local embedder: an `Embedder` and an ai-SDK embedding model (`embed({ model, value })` takes it). */
export type LocalEmbedder = Embedder & EmbeddingModelV3;

/**
 * A deterministic embedder that needs no model file and no network: feature hashing of word unigrams and bigrams and
 * character 3- and 4-grams, signed, L2-normalised. It matches texts that share words (and word pieces), not texts
 * that only share meaning: good enough for `fw dev`, tests and a first version of search, reproducible everywhere.
 * Deployed, pass a real model (`embedderFromModel(bedrock.embedding(...))`) and re-embed.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): LocalEmbedder {
  const dimensions = options.dimensions ?? 384;
  if (!Number.isInteger(dimensions) || dimensions < 16 || dimensions > 16_000) {
    throw new AiUsageError(`createLocalEmbedder: dimensions must be a whole number from 16 to 16000 (pgvector's HNSW index takes up to 2000), got ${String(dimensions)}`);
  }
  const modelId = `local-hashing-v1-${dimensions}`;
  const embedMany = (texts: readonly string[]) => Promise.resolve(texts.map((text) => hashedFeatures(text, dimensions)));
  return {
    // Embedder
    modelId,
    dimensions,
    embed: (text: string) => Promise.resolve(hashedFeatures(text, dimensions)),
    embedMany,
    // ai SDK EmbeddingModelV3
    specificationVersion: 'v3',
    provider: 'framework-local',
    maxEmbeddingsPerCall: Infinity,
    supportsParallelCalls: true,
    async doEmbed(call: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
      return { embeddings: await embedMany(call.values), warnings: [] };
    },
  };
}
