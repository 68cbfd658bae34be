import type { Readable } from 'node:stream';
import type { PresignUploadOptions } from '../limits/upload-policy.js';

/** A presigned upload: an HTML form POST (S3's POST policy), so size and type limits are enforced by the signature. */
export interface PresignedUpload {
  /** Where to POST the multipart form. */
  readonly url: string;
  readonly method: 'POST';
  /** Form fields to send, in this order, before the file field (which must be named `file` and come last). */
  readonly fields: Readonly<Record<string, string>>;
  readonly key: string;
  readonly maxBytes: number;
  readonly expiresAt: Date;
}

export interface PresignedDownload {
  readonly url: string;
  readonly expiresAt: Date;
}

export interface PresignDownloadOptions {
  /** Seconds the URL stays valid, 1 to 604800. @default 900 */
  readonly expiresIn?: number;
}

export interface PutOptions {
  /** @default 'application/octet-stream' */
  readonly contentType?: string;
  /** @default - none */
  readonly cacheControl?: string;
}

export interface PutResult {
  /** The object's ETag as S3 returns it (quoted MD5 hex for a single-part object). */
  readonly etag: string;
}

/** What the store knows about an object. */
export interface ObjectInfo {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  readonly lastModified: Date;
  /** Not returned by `list` (S3's listing does not carry it). */
  readonly contentType?: string;
}

/** An object being read: metadata plus its bytes as a Node stream (read it once). */
export interface StoredObject extends ObjectInfo {
  readonly contentType: string;
  readonly body: Readable;
}

export interface ListOptions {
  /** Only keys starting with this. @default '' */
  readonly prefix?: string;
  /** Page size, 1 to 1000. @default 1000 */
  readonly limit?: number;
  /** `cursor` of the previous page. @default - the first page */
  readonly cursor?: string;
}

export interface ListPage {
  /** In ascending key order (UTF-8 bytes, as S3 orders them). */
  readonly objects: readonly ObjectInfo[];
  /** Pass to `list` for the next page; undefined on the last page. */
  readonly cursor?: string;
}

/**
 * One bucket, the same API deployed (S3) and under `fw dev` (the dev server's local engine). Reached from a handler
 * as `service.storage.<bucketId>` or `service.storage.bucket('<bucketId>')`.
 */
export interface BucketClient {
  readonly id: string;
  /** A form POST upload whose key, size range and content type are bound by the signature. */
  presignUpload(options: PresignUploadOptions): Promise<PresignedUpload>;
  /** A GET URL for one object that expires. */
  presignDownload(key: string, options?: PresignDownloadOptions): Promise<PresignedDownload>;
  put(key: string, body: string | Uint8Array | Readable, options?: PutOptions): Promise<PutResult>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Metadata only, or undefined when there is none. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Deletes the object; deleting a missing object is not an error (as in S3). */
  delete(key: string): Promise<void>;
  list(options?: ListOptions): Promise<ListPage>;
  /**
   * The object's URL under the bucket's public base: the CDN when the intent has `cdn: true`. Without the CDN the
   * bucket is private and the URL answers 403: use `presignDownload`.
   */
  publicUrl(key: string): string;
}
