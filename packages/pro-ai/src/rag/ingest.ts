import type { Readable } from 'node:stream';
import { objectsCreated } from '@framework/storage';
import type { UpsertResult, VectorStore } from '../vector/vector-store.js';
import { chunkText, type ChunkOptions } from './chunk-text.js';
import { extractText, type DocumentFormat } from './extract-text.js';

export interface IngestDocumentInput {
  readonly collection: string;
  readonly documentId: string;
  /** The version (an ETag): a version already indexed is skipped before anything is extracted or embedded. */
  readonly version: string;
  readonly body: Uint8Array | string;
  /** @default - from `name`'s extension */
  readonly contentType?: string;
  /** File name or key (for the extension and, by default, the citation). @default documentId */
  readonly name?: string;
  /** What citations name. @default name */
  readonly source?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly chunking?: ChunkOptions;
}

export interface IngestResult extends UpsertResult {
  /** Absent when the version was there already (nothing was read). */
  readonly format?: DocumentFormat;
}

/** Extract, chunk, embed, upsert: one document version, idempotent (see `VectorStore.upsertDocument`). */
export async function ingestDocument(store: VectorStore, input: IngestDocumentInput): Promise<IngestResult> {
  if ((await store.documentVersion(input.collection, input.documentId)) === input.version) {
    return store.upsertDocument({ collection: input.collection, documentId: input.documentId, version: input.version, chunks: [] });
  }
  const name = input.name ?? input.documentId;
  const { format, text } = await extractText({ body: input.body, ...(input.contentType ? { contentType: input.contentType } : {}), name });
  const chunks = await chunkText(text, input.chunking);
  const result = await store.upsertDocument({
    collection: input.collection,
    documentId: input.documentId,
    version: input.version,
    source: input.source ?? name,
    ...(input.metadata ? { metadata: input.metadata } : {}),
    chunks: chunks.map((c) => ({ text: c.text })),
  });
  return { ...result, format };
}

/** What the pipeline needs from a bucket client (`service.storage.<id>` of `@framework/storage`). */
export interface ReadableBucket {
  get(key: string): Promise<{ readonly etag: string; readonly contentType: string; readonly body: Readable } | undefined>;
}

export interface IngestUploadsOptions {
  readonly store: VectorStore;
  /** The bucket the event's objects are in. */
  readonly bucket: ReadableBucket;
  readonly collection: string;
  /** The document id of a key. @default the key */
  readonly documentId?: (key: string) => string;
  /** Metadata of a key's document (for filters: a task id, an owner). @default {} */
  readonly metadata?: (key: string) => Readonly<Record<string, unknown>>;
  /** Keys to leave out (images, ...). @default - none: every object must be a readable document */
  readonly skip?: (key: string, contentType: string) => boolean;
  readonly chunking?: ChunkOptions;
}

export interface IngestedUpload {
  readonly key: string;
  /** `missing`: the object was deleted before the message was handled; `skipped`: `skip` said so. */
  readonly status: IngestResult['status'] | 'missing' | 'skipped';
  readonly result?: IngestResult;
}

/**
 * The queue consumer's half of "upload -> queue -> extract -> chunk -> embed -> upsert": give it a message body of
 * the bucket's "object created" notifications (an S3 event, the same shape under `fw dev`). Each object is read as it
 * is now, and its current ETag is the version: a late or redelivered message indexes the current content, and the
 * same content is never indexed twice. A document that cannot be read throws (the queue retries, then dead-letters).
 */
export async function ingestUploads(messageBody: unknown, options: IngestUploadsOptions): Promise<IngestedUpload[]> {
  const out: IngestedUpload[] = [];
  for (const created of objectsCreated(messageBody)) {
    const { key } = created;
    const documentId = options.documentId?.(key) ?? key;
    const object = await options.bucket.get(key);
    if (!object) {
      out.push({ key, status: 'missing' });
      continue;
    }
    const version = object.etag.replace(/"/g, '');
    if (options.skip?.(key, object.contentType)) {
      object.body.destroy();
      out.push({ key, status: 'skipped' });
      continue;
    }
    if ((await options.store.documentVersion(options.collection, documentId)) === version) {
      object.body.destroy();
      out.push({ key, status: 'unchanged' });
      continue;
    }
    const parts: Buffer[] = [];
    for await (const part of object.body) parts.push(typeof part === 'string' ? Buffer.from(part) : Buffer.from(part as Uint8Array));
    const result = await ingestDocument(options.store, {
      collection: options.collection,
      documentId,
      version,
      body: Buffer.concat(parts),
      contentType: object.contentType,
      name: key.split('/').pop() ?? key,
      ...(options.metadata ? { metadata: options.metadata(key) } : {}),
      ...(options.chunking ? { chunking: options.chunking } : {}),
    });
    out.push({ key, status: result.status, result });
  }
  return out;
}
