import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { objectCreatedEvent } from '@framework/storage';
import type { ReadableBucket } from '../../src/index.js';

const CORPUS = new URL('../fixtures/corpus/', import.meta.url);
const TYPES: Record<string, string> = { txt: 'text/plain', md: 'text/markdown', html: 'text/html', pdf: 'application/pdf' };

/** The fixture corpus: file name, bytes, content type. */
export function corpusFiles(): { name: string; body: Buffer; contentType: string }[] {
  return readdirSync(CORPUS)
    .sort()
    .map((name) => ({ name, body: readFileSync(new URL(name, CORPUS)), contentType: TYPES[name.split('.').pop()!]! }));
}

export interface Label {
  readonly query: string;
  readonly relevant: readonly string[];
}

export function labels(): Label[] {
  return (JSON.parse(readFileSync(new URL('../fixtures/labels.json', import.meta.url), 'utf8')) as { queries: Label[] }).queries;
}

/**
 * A bucket in memory with the calls the pipeline makes (`get`), and the "object created" event a put produces: the
 * storage package tests its real clients; here the pipeline after the event is under test.
 */
export class MemoryBucket implements ReadableBucket {
  readonly objects = new Map<string, { body: Buffer; contentType: string; etag: string }>();
  gets = 0;

  /** Stores the object and returns the queue message body S3 (and fw dev) would send for it. */
  put(key: string, body: Buffer | string, contentType: string): string {
    const bytes = Buffer.from(body);
    const etag = createHash('md5').update(bytes).digest('hex');
    this.objects.set(key, { body: bytes, contentType, etag: `"${etag}"` });
    return JSON.stringify(objectCreatedEvent({ bucket: 'docs', key, size: bytes.length, etag, eventName: 'ObjectCreated:Put', region: 'eu-west-1', configurationId: 'ingest' }));
  }

  async get(key: string) {
    this.gets++;
    const object = this.objects.get(key);
    return object ? { etag: object.etag, contentType: object.contentType, body: Readable.from([object.body]) } : undefined;
  }
}
