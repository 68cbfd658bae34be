-- The vector store of @framework-pro/ai (src/lib/ai.ts): documents, chunks with their vectors (384 dimensions: the
-- local embedder's), an HNSW index, full text for hybrid search, and the embeddings cache; both tables are tenant
-- tables. The SQL is vectorStoreMigration({ dimensions: 384, tenantTable }).up (test/ai.test.ts checks it).
-- pgvector is on Aurora, RDS and fw dev's embedded PGlite. A PostgreSQL server without it (Debian's package has
-- none) skips these tables with a notice instead of failing every later migration: POST /ask then needs the
-- embedded engine (fw dev --engine databases=embedded) or a server with pgvector.
DO $fw_ai$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_available_extensions WHERE name = 'vector') THEN
    RAISE NOTICE 'pgvector is not available on this server: the AI tables are not created';
    RETURN;
  END IF;
  EXECUTE $fw_sql$
    CREATE EXTENSION IF NOT EXISTS vector;
    CREATE TABLE fw_ai_documents (
      tenant_id text NOT NULL DEFAULT '',
      collection text NOT NULL,
      document_id text NOT NULL,
      version text NOT NULL,
      source text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      indexed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, collection, document_id)
    );
    CREATE TABLE fw_ai_chunks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id text NOT NULL DEFAULT '',
      collection text NOT NULL,
      document_id text NOT NULL,
      ordinal int NOT NULL,
      content text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      embedding vector(384),
      embedding_model text NOT NULL,
      embedding_dimensions int NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
      UNIQUE (tenant_id, collection, document_id, ordinal),
      FOREIGN KEY (tenant_id, collection, document_id) REFERENCES fw_ai_documents (tenant_id, collection, document_id) ON DELETE CASCADE
    );
    CREATE INDEX fw_ai_chunks_embedding_idx ON fw_ai_chunks USING hnsw (embedding vector_cosine_ops);
    CREATE INDEX fw_ai_chunks_tsv_idx ON fw_ai_chunks USING gin (tsv);
    CREATE INDEX fw_ai_chunks_model_idx ON fw_ai_chunks (embedding_model, embedding_dimensions);
    CREATE TABLE fw_ai_embedding_cache (
      model text NOT NULL,
      dimensions int NOT NULL,
      content_hash text NOT NULL,
      embedding vector NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (model, dimensions, content_hash)
    );
    ALTER TABLE fw_ai_documents ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
    CREATE INDEX fw_ai_documents_tenant_id_idx ON fw_ai_documents (tenant_id);
    ALTER TABLE fw_ai_documents ENABLE ROW LEVEL SECURITY;
    ALTER TABLE fw_ai_documents FORCE ROW LEVEL SECURITY;
    CREATE POLICY fw_tenant_isolation ON fw_ai_documents USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');
    ALTER TABLE fw_ai_chunks ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
    CREATE INDEX fw_ai_chunks_tenant_id_idx ON fw_ai_chunks (tenant_id);
    ALTER TABLE fw_ai_chunks ENABLE ROW LEVEL SECURITY;
    ALTER TABLE fw_ai_chunks FORCE ROW LEVEL SECURITY;
    CREATE POLICY fw_tenant_isolation ON fw_ai_chunks USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');
  $fw_sql$;
END $fw_ai$;

-- down
DROP TABLE IF EXISTS fw_ai_embedding_cache;
DROP TABLE IF EXISTS fw_ai_chunks;
DROP TABLE IF EXISTS fw_ai_documents;
