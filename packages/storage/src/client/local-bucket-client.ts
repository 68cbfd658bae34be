import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidStorageOptionError, StorageRequestError } from '../errors.js';
import { encodeObjectKey, validateObjectKey } from '../keys/object-key.js';
import type { BucketSettings } from '../limits/bucket-settings.js';
import { checkContentType, resolveExpiresIn, resolveUploadPolicy, type PresignUploadOptions } from '../limits/upload-policy.js';
import type { BucketClient, ListOptions, ListPage, ObjectInfo, PresignDownloadOptions, PresignedDownload, PresignedUpload, PutOptions, PutResult, StoredObject } from './bucket-client.js';
import { LOCAL_CLIENT_HEADER, parseS3ErrorXml, type LocalListResponse, type LocalPresignRequest, type LocalPresignResponse } from './local-protocol.js';

/** The bucket client under `fw dev`: the same API, against the dev server's local engine over HTTP. */
export class LocalBucketClient implements BucketClient {
  public readonly id: string;
  private readonly base: string;

  constructor(private readonly settings: BucketSettings) {
    this.id = settings.id;
    this.base = settings.publicUrl;
  }

  async presignUpload(options: PresignUploadOptions): Promise<PresignedUpload> {
    const policy = resolveUploadPolicy({ bucketId: this.id, maxUploadBytes: this.settings.maxUploadBytes, allowedContentTypes: this.settings.allowedContentTypes }, options);
    const answer = await this.presign({ operation: 'upload', key: policy.key, contentType: policy.contentType, maxBytes: policy.maxBytes, expiresIn: policy.expiresIn });
    return { url: answer.url, method: 'POST', fields: answer.fields ?? {}, key: policy.key, maxBytes: policy.maxBytes, expiresAt: new Date(answer.expiresAt) };
  }

  async presignDownload(key: string, options: PresignDownloadOptions = {}): Promise<PresignedDownload> {
    const answer = await this.presign({ operation: 'download', key: validateObjectKey(key), expiresIn: resolveExpiresIn(options.expiresIn) });
    return { url: answer.url, expiresAt: new Date(answer.expiresAt) };
  }

  async put(key: string, body: string | Uint8Array | Readable, options: PutOptions = {}): Promise<PutResult> {
    validateObjectKey(key);
    const contentType = options.contentType ?? 'application/octet-stream';
    checkContentType(contentType, { bucketId: this.id, allowedContentTypes: this.settings.allowedContentTypes });
    const headers: Record<string, string> = { 'content-type': contentType };
    if (options.cacheControl !== undefined) headers['cache-control'] = options.cacheControl;
    const res = await this.request('PUT', this.objectUrl(key), { headers, body });
    const answer = (await res.json()) as { etag: string };
    return { etag: answer.etag };
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const res = await this.request('GET', this.objectUrl(validateObjectKey(key)), { allowNotFound: true });
    if (res.status === 404) return undefined;
    const info = this.infoFrom(key, res);
    const body = res.body ? Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>) : Readable.from([]);
    return { ...info, contentType: info.contentType ?? 'application/octet-stream', body };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const res = await this.request('HEAD', this.objectUrl(validateObjectKey(key)), { allowNotFound: true });
    if (res.status === 404) return undefined;
    return this.infoFrom(key, res);
  }

  async delete(key: string): Promise<void> {
    await this.request('DELETE', this.objectUrl(validateObjectKey(key)));
  }

  async list(options: ListOptions = {}): Promise<ListPage> {
    const limit = options.limit ?? 1000;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new InvalidStorageOptionError(`limit must be 1 to 1000, got ${options.limit}`);
    const query = new URLSearchParams({ 'list-type': '2', 'max-keys': String(limit) });
    if (options.prefix) query.set('prefix', options.prefix);
    if (options.cursor) query.set('continuation-token', options.cursor);
    const res = await this.request('GET', `${this.base}?${query}`);
    const answer = (await res.json()) as LocalListResponse;
    return {
      objects: answer.objects.map((o) => ({ key: o.key, size: o.size, etag: o.etag, lastModified: new Date(o.lastModified) })),
      cursor: answer.cursor,
    };
  }

  publicUrl(key: string): string {
    return this.objectUrl(validateObjectKey(key));
  }

  private objectUrl(key: string): string {
    return `${this.base}/${encodeObjectKey(key)}`;
  }

  private infoFrom(key: string, res: Response): ObjectInfo {
    return {
      key,
      size: Number(res.headers.get('content-length') ?? 0),
      etag: res.headers.get('etag') ?? '',
      lastModified: new Date(res.headers.get('last-modified') ?? 0),
      contentType: res.headers.get('content-type') ?? undefined,
    };
  }

  private async presign(request: LocalPresignRequest): Promise<LocalPresignResponse> {
    const res = await this.request('POST', `${this.base}?presign`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
    return (await res.json()) as LocalPresignResponse;
  }

  private async request(method: string, url: string, init: { headers?: Record<string, string>; body?: string | Uint8Array | Readable; allowNotFound?: boolean } = {}): Promise<Response> {
    let res: Response;
    const headers = { [LOCAL_CLIENT_HEADER]: this.settings.devStorageToken ?? '', ...init.headers };
    try {
      // A stream is sent as it is read (chunked), never buffered: the engine streams it to disk too.
      res = init.body instanceof Readable ? await sendStream(method, url, headers, init.body) : await fetch(url, { method, headers, body: init.body });
    } catch (cause) {
      throw new StorageRequestError('NetworkingError', 0, `the dev server at ${url} did not answer; is fw dev running?`, { cause });
    }
    // Only a missing object is an answer (undefined); a missing bucket is an error like any other.
    if (res.ok || (init.allowNotFound && res.status === 404 && res.headers.get('x-fw-error-code') === 'NoSuchKey')) return res;
    const text = await res.text();
    const parsed = parseS3ErrorXml(text);
    throw new StorageRequestError(parsed?.code ?? 'UnknownError', res.status, parsed?.message || text.slice(0, 200));
  }
}

/**
 * Sends a stream body with `node:http` as it is read, with backpressure, and answers a fetch `Response`. Not fetch:
 * Node 20's fetch keeps every chunk of a streamed request body until the request ends (a 300 MiB put held 300 MiB).
 */
function sendStream(method: string, url: string, headers: Record<string, string>, source: Readable): Promise<Response> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const req = send(target, { method, headers }, (res) => {
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
      const status = res.statusCode ?? 502;
      const body = status === 204 || status === 304 || method === 'HEAD' ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, headers: answerHeaders }));
    });
    req.on('error', reject);
    // An early answer (a refusal) settles the promise; the rest of the body is then dropped with the request.
    pipeline(source, req).catch((error: unknown) => {
      req.destroy();
      reject(error);
    });
  });
}
