import type { EmbeddingModel } from 'ai';
import { loadAiSdk } from '../models/ai-sdk.js';
import { AiUsageError, EmbeddingMismatchError } from '../errors.js';
import type { Embedder } from './embedder.js';

export interface ModelEmbedderOptions {
  /** The vector length the model returns (checked on every answer). */
  readonly dimensions: number;
  /**
   * Recorded with every vector.
   * @default - the model's `modelId`
   */
  readonly modelId?: string;
  /**
   * Texts per call to the model (the ai SDK splits further by the model's own limit).
   * @default 64
   */
  readonly batchSize?: number;
  /**
   * Retries of a failed call (the ai SDK backs off between them).
   * @default 2
   */
  readonly maxRetries?: number;
}

/** An `Embedder` over any ai-SDK embedding model (Bedrock Titan, an OpenAI-compatible endpoint, ...). */
export function embedderFromModel(model: Exclude<EmbeddingModel, string>, options: ModelEmbedderOptions): Embedder {
  const { dimensions } = options;
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new AiUsageError(`embedderFromModel: dimensions must be a positive whole number, got ${String(dimensions)}`);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new AiUsageError(`embedderFromModel: batchSize must be a positive whole number, got ${String(batchSize)}`);
  const modelId = options.modelId ?? (typeof model === 'object' && 'modelId' in model ? model.modelId : 'unknown');
  const many = async (texts: readonly string[]): Promise<number[][]> => {
    const out: number[][] = [];
    const { embedMany } = await loadAiSdk();
    for (let i = 0; i < texts.length; i += batchSize) {
      const values = texts.slice(i, i + batchSize);
      const { embeddings } = await embedMany({ model, values, maxRetries: options.maxRetries ?? 2 });
      if (embeddings.length !== values.length) throw new EmbeddingMismatchError(`${modelId} returned ${embeddings.length} vectors for ${values.length} texts`);
      for (const vector of embeddings) {
        if (vector.length !== dimensions) throw new EmbeddingMismatchError(`${modelId} returned vectors of ${vector.length} dimensions, the embedder was declared with ${dimensions}: fix \`dimensions\` (and the store's migration)`);
        out.push(vector);
      }
    }
    return out;
  };
  return { modelId, dimensions, embedMany: many, embed: async (text) => (await many([text]))[0]! };
}
