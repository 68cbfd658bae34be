/**
 * What the vector store and the RAG pipeline need from an embedding model. `modelId` and `dimensions` are stored with
 * every vector: a vector is only ever compared with vectors of the same model and dimension.
 */
export interface Embedder {
  /** Recorded with every vector (`embedding_model`); a change makes the stored vectors pending re-embedding. */
  readonly modelId: string;
  readonly dimensions: number;
  embed(text: string): Promise<number[]>;
  /** One vector per text, in order. */
  embedMany(texts: readonly string[]): Promise<number[][]>;
}
