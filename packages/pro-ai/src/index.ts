/**
 * @framework-pro/ai: models through the ai SDK (Bedrock, OpenAI-compatible endpoints, a mock), with budgets,
 * retries and usage around every call; agents with tools, a step limit, a time budget and memory; embeddings
 * (`createLocalEmbedder`, `cachedEmbedder`), a pgvector store in the app's PostgreSQL (`createVectorStore`,
 * `vectorStoreMigration`) and RAG (`ingestDocument`, `ingestUploads`, `answer`). See README.md.
 */
import { requireLicense } from '@framework-pro/license';

// Once per cold start (the check keeps its result): never throws, warns locally, logs loudly when deployed.
requireLicense('ai');

export * from './errors.js';
export * from './models/index.js';
export * from './agents/index.js';
export * from './schema/index.js';
export * from './embeddings/index.js';
export * from './vector/index.js';
export * from './rag/index.js';
