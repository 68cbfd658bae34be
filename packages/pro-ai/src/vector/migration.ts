import { AiUsageError } from '../errors.js';

/** `tenantTable` of `@framework-pro/tenancy` (passed in, so apps without tenancy never load that package). */
export type TenantTableSql = (table: string, options: { readonly addColumn: false }) => { readonly up: string; readonly down: string };

export interface VectorStoreMigrationOptions {
  /**
   * Length of the stored vectors: the embedder's `dimensions` (384 for `createLocalEmbedder()`). pgvector's HNSW
   * index takes up to 2000.
   * @default 384
   */
  readonly dimensions?: number;
  /**
   * Makes the tables tenant tables: pass `tenantTable` of `@framework-pro/tenancy` (row-level security on
   * `tenant_id`, filled from the transaction's tenant). Without it `tenant_id` is `''` for every row.
   * @default - no tenancy
   */
  readonly tenantTable?: TenantTableSql;
  /**
   * The text-search configuration of the full-text half of hybrid search.
   * @default 'english'
   */
  readonly textSearchConfig?: string;
}

/** SQL of a migration, as `fw migrate` files hold it (`up` above the `-- down` line, `down` below). */
export interface VectorStoreMigrationSql {
  readonly up: string;
  readonly down: string;
}

const TABLES = ['fw_ai_documents', 'fw_ai_chunks'] as const;

/**
 * The vector store's tables: `fw_ai_documents` (one row per document and version), `fw_ai_chunks` (text, metadata,
 * the vector with the model and dimension that made it, a generated `tsvector`), an HNSW index (cosine) and a GIN
 * index, and `fw_ai_embedding_cache`. `CREATE EXTENSION IF NOT EXISTS vector` first: PGlite (fw dev, tests) loads
 * pgvector, Aurora and RDS have it; a PostgreSQL server without pgvector fails this migration and says so.
 */
export function vectorStoreMigration(options: VectorStoreMigrationOptions = {}): VectorStoreMigrationSql {
  const dimensions = options.dimensions ?? 384;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000) {
    throw new AiUsageError(`vectorStoreMigration: dimensions must be a whole number from 1 to 2000 (pgvector's HNSW limit), got ${String(dimensions)}`);
  }
  const config = options.textSearchConfig ?? 'english';
  if (!/^[a-z_][a-z0-9_]*$/.test(config)) throw new AiUsageError(`vectorStoreMigration: textSearchConfig must be a plain identifier such as 'english' or 'simple', got ${JSON.stringify(config)}`);
  const up = [
    'CREATE EXTENSION IF NOT EXISTS vector;',
    `CREATE TABLE fw_ai_documents (
  tenant_id text NOT NULL DEFAULT '',
  collection text NOT NULL,
  document_id text NOT NULL,
  version text NOT NULL,
  source text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  indexed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, collection, document_id)
);`,
    `CREATE TABLE fw_ai_chunks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL DEFAULT '',
  collection text NOT NULL,
  document_id text NOT NULL,
  ordinal int NOT NULL,
  content text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  embedding vector(${dimensions}),
  embedding_model text NOT NULL,
  embedding_dimensions int NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('${config}', content)) STORED,
  UNIQUE (tenant_id, collection, document_id, ordinal),
  FOREIGN KEY (tenant_id, collection, document_id) REFERENCES fw_ai_documents (tenant_id, collection, document_id) ON DELETE CASCADE
);`,
    'CREATE INDEX fw_ai_chunks_embedding_idx ON fw_ai_chunks USING hnsw (embedding vector_cosine_ops);',
    'CREATE INDEX fw_ai_chunks_tsv_idx ON fw_ai_chunks USING gin (tsv);',
    'CREATE INDEX fw_ai_chunks_model_idx ON fw_ai_chunks (embedding_model, embedding_dimensions);',
    // Keyed by the text's hash, not by tenant: an embedding says nothing a holder of the same text could not compute.
    `CREATE TABLE fw_ai_embedding_cache (
  model text NOT NULL,
  dimensions int NOT NULL,
  content_hash text NOT NULL,
  embedding vector NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model, dimensions, content_hash)
);`,
  ];
  if (options.tenantTable) for (const table of TABLES) up.push(options.tenantTable(table, { addColumn: false }).up.trim());
  const down = ['DROP TABLE IF EXISTS fw_ai_embedding_cache;', 'DROP TABLE IF EXISTS fw_ai_chunks;', 'DROP TABLE IF EXISTS fw_ai_documents;'];
  return { up: up.join('\n') + '\n', down: down.join('\n') + '\n' };
}

/**
 * A migration for a new embedding dimension (a new model): the vectors of the old one are dropped (set to NULL:
 * `store.reembed()` fills them with the new model) and the column and its index are rebuilt for `dimensions`.
 */
export function changeEmbeddingDimensionsMigration(dimensions: number, previousDimensions: number): VectorStoreMigrationSql {
  for (const [name, value] of [['dimensions', dimensions], ['previousDimensions', previousDimensions]] as const) {
    if (!Number.isInteger(value) || value < 1 || value > 2000) throw new AiUsageError(`changeEmbeddingDimensionsMigration: ${name} must be a whole number from 1 to 2000, got ${String(value)}`);
  }
  const change = (to: number) =>
    [
      'DROP INDEX IF EXISTS fw_ai_chunks_embedding_idx;',
      `ALTER TABLE fw_ai_chunks ALTER COLUMN embedding TYPE vector(${to}) USING NULL;`,
      'CREATE INDEX fw_ai_chunks_embedding_idx ON fw_ai_chunks USING hnsw (embedding vector_cosine_ops);',
    ].join('\n') + '\n';
  return { up: change(dimensions), down: change(previousDimensions) };
}
