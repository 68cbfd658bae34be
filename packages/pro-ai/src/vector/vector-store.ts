import { sql, type Database, type SqlFragment } from '@framework/data';
import type { Embedder } from '../embeddings/embedder.js';
import { vectorLiteral } from '../embeddings/vector-text.js';
import { AiUsageError, EmbeddingMismatchError } from '../errors.js';
import { checkEfSearch, efSearchSql } from './ef-search.js';
import { checkCollection, filterJson, type MetadataFilter } from './metadata-filter.js';

export interface VectorStoreOptions {
  /** The app's database (`service.db`): with `enableRowLevelSecurity()` every statement is the current tenant's. */
  readonly db: Database;
  /** Embeds chunks and queries; its `modelId` and `dimensions` are stored with every vector. */
  readonly embedder: Embedder;
  /**
   * The text-search configuration the migration's `tsvector` column uses.
   * @default 'english'
   */
  readonly textSearchConfig?: string;
  /**
   * Candidates each half of a hybrid search contributes before fusion.
   * @default 50
   */
  readonly candidates?: number;
  /**
   * `hnsw.ef_search` of each search (set for its transaction only): how many neighbours the HNSW scan keeps while it
   * walks the graph. `'auto'` grows it with the collection's size: 200 up to 25,000 vectors, then one per 125
   * vectors, up to pgvector's limit of 1000 (`autoEfSearch`): recall@10 0.95 or more up to about 100,000 vectors in
   * the package's benchmark, where pgvector's default of 40 found 57%. A number fixes it (a search's own `efSearch`
   * wins). Never below the candidates fetched.
   * @default 'auto'
   */
  readonly efSearch?: number | 'auto';
}

export interface ChunkInput {
  readonly text: string;
  /** Merged over the document's metadata for this chunk. @default {} */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface DocumentInput {
  readonly collection: string;
  /** The document's id in the collection (a storage key, `task:<id>`, ...). */
  readonly documentId: string;
  /** Its version (an ETag, an `updated_at`): the same version is never indexed twice. */
  readonly version: string;
  /** What a citation names: a file name, a URL, a title. @default documentId */
  readonly source?: string;
  /** Filterable metadata, given to every chunk. @default {} */
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly chunks: readonly ChunkInput[];
}

export interface UpsertResult {
  /** `unchanged`: this version was indexed already (by this call's predecessor or a concurrent one). */
  readonly status: 'indexed' | 'unchanged';
  readonly documentId: string;
  readonly version: string;
  readonly chunkIds: readonly string[];
}

/** `hybrid`: vector and full-text ranks fused (reciprocal rank fusion); `vector` or `text` alone. */
export type SearchMode = 'hybrid' | 'vector' | 'text';

export interface SearchOptions {
  readonly collection: string;
  /** Metadata every hit must carry (jsonb containment). @default - none */
  readonly filter?: MetadataFilter;
  /** Hits returned. @default 5 */
  readonly k?: number;
  /** @default 'hybrid' */
  readonly mode?: SearchMode;
  /** This search's `hnsw.ef_search` (wider: better recall, slower), over the store's. @default - the store's `efSearch` */
  readonly efSearch?: number | 'auto';
}

export interface SearchHit {
  readonly chunkId: string;
  readonly collection: string;
  readonly documentId: string;
  readonly version: string;
  readonly source: string;
  readonly ordinal: number;
  readonly text: string;
  readonly metadata: Record<string, unknown>;
  /** Higher is better: the fused score (hybrid), cosine similarity (vector) or the text rank (text). */
  readonly score: number;
}

/** Reciprocal rank fusion's constant: a hit ranked r by one half adds 1 / (60 + r). */
const RRF_K = 60;

interface HitRow {
  id: string;
  collection: string;
  document_id: string;
  version: string;
  source: string;
  ordinal: number;
  content: string;
  metadata: Record<string, unknown>;
  score: number;
}

/**
 * Collections of documents cut into chunks, in the app's PostgreSQL (the tables of `vectorStoreMigration`). Tenant
 * isolation is the database's: with `@framework-pro/tenancy`'s row-level security on, every statement runs as the
 * current tenant, so one tenant's search never reads another's chunks, whatever the filter says.
 */
export class VectorStore {
  public readonly db: Database;
  public readonly embedder: Embedder;
  private readonly config: string;
  private readonly candidates: number;
  private readonly efSearch: number | 'auto';

  constructor(options: VectorStoreOptions) {
    this.db = options.db;
    this.embedder = options.embedder;
    this.config = options.textSearchConfig ?? 'english';
    this.candidates = options.candidates ?? 50;
    if (!Number.isInteger(this.candidates) || this.candidates < 1) throw new AiUsageError(`createVectorStore: candidates must be a positive whole number, got ${String(options.candidates)}`);
    this.efSearch = checkEfSearch(options.efSearch, 'createVectorStore');
  }

  /**
   * Indexes a document version: its chunks are embedded and replace the previous version's in one transaction. A
   * version already indexed is left alone (`unchanged`) and nothing is embedded: redelivered queue messages and
   * repeated uploads cost one read.
   */
  async upsertDocument(input: DocumentInput): Promise<UpsertResult> {
    const collection = checkCollection(input.collection);
    if (typeof input.documentId !== 'string' || input.documentId.length === 0 || input.documentId.length > 1024) throw new AiUsageError('documentId must be a non-empty string of at most 1024 characters');
    if (typeof input.version !== 'string' || input.version.length === 0) throw new AiUsageError('version must be a non-empty string (an ETag, a timestamp)');
    const metadata = JSON.parse(filterJson(input.metadata)) as Record<string, unknown>;
    if ((await this.documentVersion(collection, input.documentId)) === input.version) return { status: 'unchanged', documentId: input.documentId, version: input.version, chunkIds: await this.chunkIdsOf(collection, input.documentId) };
    const chunks = input.chunks.filter((c) => c.text.trim().length > 0);
    const vectors = chunks.length ? await this.embedder.embedMany(chunks.map((c) => c.text)) : [];
    this.checkVectors(vectors, chunks.length);
    const source = input.source ?? input.documentId;
    return this.db.transaction(async (tx) => {
      // The row lock of this upsert orders concurrent indexers of one document; the loser finds its version there.
      const written = await tx.maybeOne<{ version: string }>(sql`
        INSERT INTO fw_ai_documents (collection, document_id, version, source, metadata)
        VALUES (${collection}, ${input.documentId}, ${input.version}, ${source}, ${sql.json(metadata)})
        ON CONFLICT (tenant_id, collection, document_id) DO UPDATE
          SET version = EXCLUDED.version, source = EXCLUDED.source, metadata = EXCLUDED.metadata, indexed_at = now()
          WHERE fw_ai_documents.version <> EXCLUDED.version
        RETURNING version`);
      if (!written) {
        const ids = await tx.many<{ id: string }>(sql`SELECT id FROM fw_ai_chunks WHERE collection = ${collection} AND document_id = ${input.documentId} ORDER BY ordinal`);
        return { status: 'unchanged' as const, documentId: input.documentId, version: input.version, chunkIds: ids.map((r) => r.id) };
      }
      await tx.query(sql`DELETE FROM fw_ai_chunks WHERE collection = ${collection} AND document_id = ${input.documentId}`);
      if (chunks.length === 0) return { status: 'indexed' as const, documentId: input.documentId, version: input.version, chunkIds: [] };
      const rows = await tx.many<{ id: string }>(sql`
        INSERT INTO fw_ai_chunks (collection, document_id, ordinal, content, metadata, embedding, embedding_model, embedding_dimensions)
        SELECT ${collection}, ${input.documentId}, o, c, m::jsonb, e::vector, ${this.embedder.modelId}, ${this.embedder.dimensions}
        FROM unnest(${chunks.map((_, i) => i)}::int[], ${chunks.map((c) => c.text)}::text[], ${chunks.map((c) => JSON.stringify({ ...metadata, ...(c.metadata ?? {}) }))}::text[], ${vectors.map(vectorLiteral)}::text[]) AS t(o, c, m, e)
        ORDER BY o
        RETURNING id`);
      return { status: 'indexed' as const, documentId: input.documentId, version: input.version, chunkIds: rows.map((r) => r.id) };
    });
  }

  /** The indexed version of a document, if any (the pipeline skips extracting a version already there). */
  async documentVersion(collection: string, documentId: string): Promise<string | undefined> {
    const row = await this.db.maybeOne<{ version: string }>(sql`SELECT version FROM fw_ai_documents WHERE collection = ${checkCollection(collection)} AND document_id = ${documentId}`);
    return row?.version;
  }

  /** Removes a document and its chunks (the chunks go with the document row: `ON DELETE CASCADE`). */
  async deleteDocument(collection: string, documentId: string): Promise<boolean> {
    const result = await this.db.query(sql`DELETE FROM fw_ai_documents WHERE collection = ${checkCollection(collection)} AND document_id = ${documentId}`);
    return result.rowCount > 0;
  }

  /** The chunks most relevant to `query`, best first. */
  async search(query: string, options: SearchOptions): Promise<SearchHit[]> {
    const collection = checkCollection(options.collection);
    const filter = filterJson(options.filter);
    const k = options.k ?? 5;
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new AiUsageError(`k must be a whole number from 1 to 1000, got ${String(options.k)}`);
    const mode = options.mode ?? 'hybrid';
    if (mode !== 'hybrid' && mode !== 'vector' && mode !== 'text') throw new AiUsageError(`mode must be 'hybrid', 'vector' or 'text', got ${JSON.stringify(mode)}`);
    if (typeof query !== 'string') throw new AiUsageError('the query must be a string');
    const efSearch = options.efSearch === undefined ? this.efSearch : checkEfSearch(options.efSearch, 'search');
    const n = Math.max(k, this.candidates);
    const where = sql`c.collection = ${collection} AND c.metadata @> ${filter}::jsonb`;
    const arms: SqlFragment[] = [];
    if (mode !== 'text') {
      const vector = await this.embedder.embed(query);
      this.checkVectors([vector], 1);
      // A vector without any feature (a query of stop words only) has no direction: only full text can answer it.
      if (vector.some((x) => x !== 0)) {
        arms.push(sql`SELECT id, row_number() OVER () AS rank, 1 - distance AS similarity FROM (
          SELECT c.id, c.embedding <=> ${vectorLiteral(vector)}::vector AS distance FROM fw_ai_chunks c
          WHERE ${where} AND c.embedding_model = ${this.embedder.modelId} AND c.embedding_dimensions = ${this.embedder.dimensions} AND c.embedding IS NOT NULL
          ORDER BY distance LIMIT ${n}) v`);
      }
    }
    if (mode !== 'vector') {
      // Any word of the query may match (OR, not plainto_tsquery's AND); ts_rank orders by how many and how often.
      arms.push(sql`SELECT id, row_number() OVER () AS rank, text_rank AS similarity FROM (
        SELECT c.id, ts_rank(c.tsv, query.q) AS text_rank FROM fw_ai_chunks c,
          (SELECT replace(plainto_tsquery(${this.config}::regconfig, ${query})::text, '&', '|')::tsquery AS q) AS query
        WHERE ${where} AND c.tsv @@ query.q
        ORDER BY text_rank DESC, c.id LIMIT ${n}) t`);
    }
    if (arms.length === 0) return [];
    const score = mode === 'hybrid' ? sql`sum(1.0 / (${RRF_K} + rank))` : sql`max(similarity)`;
    return this.db.transaction(async (tx) => {
      // With a filter (or row-level security) an HNSW scan may stop before k rows pass it: keep scanning.
      // Both settings last for this transaction only (set_config's `true`): a pooled connection keeps no trace.
      await tx.query(sql`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', ${efSearchSql(efSearch, n)}, true)`);
      const rows = await tx.many<HitRow>(sql`
        WITH hits AS (${sql.join(arms, sql` UNION ALL `)}),
        fused AS (SELECT id, ${score}::float8 AS score FROM hits GROUP BY id)
        SELECT c.id, c.collection, c.document_id, d.version, d.source, c.ordinal, c.content, c.metadata, f.score
        FROM fused f JOIN fw_ai_chunks c ON c.id = f.id
        JOIN fw_ai_documents d ON d.tenant_id = c.tenant_id AND d.collection = c.collection AND d.document_id = c.document_id
        ORDER BY f.score DESC, c.document_id, c.ordinal LIMIT ${k}`);
      return rows.map((r) => ({ chunkId: r.id, collection: r.collection, documentId: r.document_id, version: r.version, source: r.source, ordinal: r.ordinal, text: r.content, metadata: r.metadata, score: r.score }));
    }, { readOnly: true });
  }

  /**
   * Re-embeds chunks whose vector was made by another model or dimension (or dropped by
   * `changeEmbeddingDimensionsMigration`), `batchSize` at a time, until none is left; returns how many. Run it as a
   * job after switching embedders: until it finishes, vector search skips those chunks (full text still finds them).
   */
  async reembed(options: { readonly batchSize?: number } = {}): Promise<number> {
    const batchSize = options.batchSize ?? 100;
    let done = 0;
    for (;;) {
      const rows = await this.db.many<{ id: string; content: string }>(sql`
        SELECT id, content FROM fw_ai_chunks
        WHERE embedding IS NULL OR embedding_model <> ${this.embedder.modelId} OR embedding_dimensions <> ${this.embedder.dimensions}
        ORDER BY id LIMIT ${batchSize}`);
      if (rows.length === 0) return done;
      const vectors = await this.embedder.embedMany(rows.map((r) => r.content));
      this.checkVectors(vectors, rows.length);
      await this.db.query(sql`
        UPDATE fw_ai_chunks c SET embedding = t.e::vector, embedding_model = ${this.embedder.modelId}, embedding_dimensions = ${this.embedder.dimensions}
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${vectors.map(vectorLiteral)}::text[]) AS t(id, e) WHERE c.id = t.id`);
      done += rows.length;
    }
  }

  private async chunkIdsOf(collection: string, documentId: string): Promise<string[]> {
    const rows = await this.db.many<{ id: string }>(sql`SELECT id FROM fw_ai_chunks WHERE collection = ${collection} AND document_id = ${documentId} ORDER BY ordinal`);
    return rows.map((r) => r.id);
  }

  private checkVectors(vectors: readonly (readonly number[])[], expected: number): void {
    if (vectors.length !== expected) throw new EmbeddingMismatchError(`${this.embedder.modelId} returned ${vectors.length} vectors for ${expected} texts`);
    for (const v of vectors) {
      if (v.length !== this.embedder.dimensions) throw new EmbeddingMismatchError(`${this.embedder.modelId} returned a vector of ${v.length} dimensions, declared ${this.embedder.dimensions}`);
    }
  }
}

/** A vector store over the app's database; see `VectorStore`. */
export function createVectorStore(options: VectorStoreOptions): VectorStore {
  return new VectorStore(options);
}
