import type { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { InvalidStorageOptionError, StorageRequestError } from '../errors.js';
import { encodeObjectKey, validateObjectKey } from '../keys/object-key.js';
import type { BucketSettings } from '../limits/bucket-settings.js';
import { checkContentType, resolveExpiresIn, resolveUploadPolicy, uploadConditions, type PresignUploadOptions } from '../limits/upload-policy.js';
import type { BucketClient, ListOptions, ListPage, ObjectInfo, PresignDownloadOptions, PresignedDownload, PresignedUpload, PutOptions, PutResult, StoredObject } from './bucket-client.js';
import { servingPolicy } from '../serving/serving-policy.js';
import { bodyBytes } from './read-body.js';

type S3Module = typeof import('@aws-sdk/client-s3');

/**
 * The deployed bucket client: S3 through the AWS SDK v3. The SDK modules are imported on first use, so a function
 * that never touches storage never loads them (cold start), and a bundle can split them out.
 */
export class S3BucketClient implements BucketClient {
  public readonly id: string;
  private sdk?: Promise<{ s3: S3Module; client: S3Client }>;

  constructor(
    private readonly settings: BucketSettings,
    private readonly clientConfig: S3ClientConfig = {},
  ) {
    this.id = settings.id;
  }

  async presignUpload(options: PresignUploadOptions): Promise<PresignedUpload> {
    const policy = resolveUploadPolicy({ bucketId: this.id, maxUploadBytes: this.settings.maxUploadBytes, allowedContentTypes: this.settings.allowedContentTypes }, options);
    const { client } = await this.load();
    const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
    const [, , range, typeCondition] = uploadConditions(this.settings.bucketName, policy);
    const fields: Record<string, string> = policy.contentType !== undefined ? { 'Content-Type': policy.contentType } : {};
    const post = await createPresignedPost(client, {
      Bucket: this.settings.bucketName,
      Key: policy.key,
      // The SDK adds the bucket and key conditions itself.
      Conditions: [range, typeCondition] as never,
      Fields: fields,
      Expires: policy.expiresIn,
    });
    return { url: post.url, method: 'POST', fields: post.fields, key: policy.key, maxBytes: policy.maxBytes, expiresAt: new Date(Date.now() + policy.expiresIn * 1000) };
  }

  async presignDownload(key: string, options: PresignDownloadOptions = {}): Promise<PresignedDownload> {
    validateObjectKey(key);
    const expiresIn = resolveExpiresIn(options.expiresIn);
    const { s3, client } = await this.load();
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const url = await getSignedUrl(client, new s3.GetObjectCommand({ Bucket: this.settings.bucketName, Key: key, ...(await this.servingOverrides(key)) }), { expiresIn });
    return { url, expiresAt: new Date(Date.now() + expiresIn * 1000) };
  }

  async put(key: string, body: string | Uint8Array | Readable, options: PutOptions = {}): Promise<PutResult> {
    validateObjectKey(key);
    const contentType = options.contentType ?? 'application/octet-stream';
    checkContentType(contentType, { bucketId: this.id, allowedContentTypes: this.settings.allowedContentTypes });
    const bytes = await bodyBytes(body);
    const { s3, client } = await this.load();
    const out = await this.call(() =>
      client.send(new s3.PutObjectCommand({ Bucket: this.settings.bucketName, Key: key, Body: bytes, ContentType: contentType, CacheControl: options.cacheControl })),
    );
    return { etag: out.ETag ?? '' };
  }

  async get(key: string): Promise<StoredObject | undefined> {
    validateObjectKey(key);
    const { s3, client } = await this.load();
    const out = await this.call(() => client.send(new s3.GetObjectCommand({ Bucket: this.settings.bucketName, Key: key })), true);
    if (!out) return undefined;
    return {
      key,
      size: out.ContentLength ?? 0,
      etag: out.ETag ?? '',
      lastModified: out.LastModified ?? new Date(0),
      contentType: out.ContentType ?? 'application/octet-stream',
      // In Node the SDK's body is an http.IncomingMessage: a Readable.
      body: out.Body as Readable,
    };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    validateObjectKey(key);
    const { s3, client } = await this.load();
    const out = await this.call(() => client.send(new s3.HeadObjectCommand({ Bucket: this.settings.bucketName, Key: key })), true);
    if (!out) return undefined;
    return { key, size: out.ContentLength ?? 0, etag: out.ETag ?? '', lastModified: out.LastModified ?? new Date(0), contentType: out.ContentType };
  }

  async delete(key: string): Promise<void> {
    validateObjectKey(key);
    const { s3, client } = await this.load();
    await this.call(() => client.send(new s3.DeleteObjectCommand({ Bucket: this.settings.bucketName, Key: key })));
  }

  async list(options: ListOptions = {}): Promise<ListPage> {
    const limit = options.limit ?? 1000;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new InvalidStorageOptionError(`limit must be 1 to 1000, got ${options.limit}`);
    const { s3, client } = await this.load();
    const out = await this.call(() =>
      client.send(new s3.ListObjectsV2Command({ Bucket: this.settings.bucketName, Prefix: options.prefix || undefined, MaxKeys: limit, ContinuationToken: options.cursor })),
    );
    return {
      objects: (out.Contents ?? []).map((o) => ({ key: o.Key ?? '', size: o.Size ?? 0, etag: o.ETag ?? '', lastModified: o.LastModified ?? new Date(0) })),
      cursor: out.IsTruncated ? out.NextContinuationToken : undefined,
    };
  }

  publicUrl(key: string): string {
    return `${this.settings.publicUrl}/${encodeObjectKey(validateObjectKey(key))}`;
  }

  /**
   * S3's response overrides that apply the serving policy to a presigned download (README, "Serving stored files"):
   * the type is read now (one HeadObject) and pinned into the URL, so the object cannot be swapped for an HTML page
   * behind it, and a type that can run script is sent as an attachment. None when the bucket opts in to inline.
   */
  private async servingOverrides(key: string): Promise<{ ResponseContentType?: string; ResponseContentDisposition?: string }> {
    if (this.settings.inlineActiveContent) return {};
    const { s3, client } = await this.load();
    const head = await this.call(() => client.send(new s3.HeadObjectCommand({ Bucket: this.settings.bucketName, Key: key })), true);
    const policy = servingPolicy(head?.ContentType);
    return { ResponseContentType: policy.contentType, ...(policy.disposition === 'attachment' ? { ResponseContentDisposition: 'attachment' } : {}) };
  }

  /** The S3 client, created once per bucket client on first use. */
  private load(): Promise<{ s3: S3Module; client: S3Client }> {
    this.sdk ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({ region: this.settings.region, ...this.clientConfig }),
    }));
    return this.sdk;
  }

  /** Runs an SDK call, turning its errors into `StorageRequestError` (and a missing object into undefined on reads). */
  private async call<T>(send: () => Promise<T>, missingIsUndefined: true): Promise<T | undefined>;
  private async call<T>(send: () => Promise<T>): Promise<T>;
  private async call<T>(send: () => Promise<T>, missingIsUndefined = false): Promise<T | undefined> {
    try {
      return await send();
    } catch (error) {
      const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode ?? 0;
      if (missingIsUndefined && e.name !== 'NoSuchBucket' && (e.name === 'NoSuchKey' || e.name === 'NotFound' || status === 404)) return undefined;
      throw new StorageRequestError(e.name ?? 'UnknownError', status, e.message ?? String(error), { cause: error });
    }
  }
}

