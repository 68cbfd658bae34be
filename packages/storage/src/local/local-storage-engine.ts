import { objectSecurityHeaders, type BucketDefinition } from '@framework/core';
import { DEV_PATHS, ENV } from '@framework/core/names';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { LOCAL_CLIENT_HEADER, LOCAL_EXPIRES_PARAM, LOCAL_POLICY_SIGNATURE_FIELD, LOCAL_SIGNATURE_PARAM, type LocalListResponse, type LocalPresignRequest, type LocalPresignResponse } from '../client/local-protocol.js';
import { StorageError } from '../errors.js';
import { objectCreatedEvent } from '../events/storage-event.js';
import { encodeObjectKey, objectKeyProblem } from '../keys/object-key.js';
import { contentTypeProblem } from '../limits/content-type.js';
import { resolveExpiresIn, resolveUploadPolicy, uploadConditions } from '../limits/upload-policy.js';
import { servingPolicy } from '../serving/serving-policy.js';
import type { UploadNotifier } from './notifier.js';
import { LocalObjectStore, ObjectTooLargeError, type LocalObjectMeta } from './object-store.js';
import { receivePostUpload } from './post-upload.js';
import { S3ErrorResponse, s3ErrorXml } from './s3-error.js';
import { LocalSigner, downloadStringToSign } from './signer.js';

/** The path the dev server mounts the engine under; a bucket's URL is `<dev server>/_dev/storage/<bucketId>`. */
export const LOCAL_STORAGE_PATH = DEV_PATHS.storage;

export interface LocalStorageEngineOptions {
  /** The project folder; data goes to `<rootDir>/.fw/storage/<bucketId>/`, the signing secret to `.fw/storage/.secret`. */
  readonly rootDir: string;
  /** Where the buckets' folders and the secret go instead (a test harness's own folder). @default '<rootDir>/.fw/storage' */
  readonly dataDir?: string;
  readonly buckets: readonly BucketDefinition[];
  /** The dev server's base URL (`http://127.0.0.1:3000`), or a function giving it once the server listens. */
  readonly baseUrl: string | (() => string);
  /** Region written into upload events. @default 'us-east-1' */
  readonly region?: string;
  /** Delivers upload notifications. @default - notifications are not delivered (logged) */
  readonly notify?: UploadNotifier;
  /** Where problems the client never sees (a failed notification) are reported. @default console.warn */
  readonly log?: (message: string) => void;
  /** Milliseconds since the epoch, for expiry checks. @default Date.now */
  readonly now?: () => number;
}

/** An HTTP request as the engine needs it, independent of the server framework. */
export interface EngineRequest {
  readonly method: string;
  /** Path and query as received, starting with `/_dev/storage/`. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Readable;
}

export interface EngineResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer | Readable;
}

interface Bucket {
  readonly definition: BucketDefinition;
  readonly store: LocalObjectStore;
}

/**
 * The embedded storage engine of `fw dev`: each bucket is a folder under `.fw/storage/`, served over HTTP with the
 * behavior of S3 that matters to an app: presigned POST uploads whose policy is verified (signature, expiry, key,
 * size range, content type), presigned downloads, public reads only for CDN buckets, S3 error codes, upload events.
 */
export class LocalStorageEngine {
  private readonly pending = new Set<Promise<void>>();
  private lifecycleTimer?: NodeJS.Timeout;
  /**
   * The secret the storage client of a function presents (header `x-fw-storage-client`): new on every start, handed
   * to functions in `FW_DEV_STORAGE_TOKEN`, never written to disk, so neither a web page nor another program can use
   * the object API.
   */
  private readonly clientToken = randomBytes(32).toString('hex');

  private constructor(
    private readonly options: LocalStorageEngineOptions,
    private readonly signer: LocalSigner,
    private readonly buckets: ReadonlyMap<string, Bucket>,
  ) {}

  static async start(options: LocalStorageEngineOptions): Promise<LocalStorageEngine> {
    const root = options.dataDir ?? LocalStorageEngine.dataDir(options.rootDir);
    const signer = await LocalSigner.open(path.join(root, '.secret'));
    const buckets = new Map<string, Bucket>();
    for (const definition of options.buckets) {
      buckets.set(definition.id, { definition, store: await LocalObjectStore.open(path.join(root, definition.id)) });
    }
    const engine = new LocalStorageEngine(options, signer, buckets);
    // Expiration rules run at start and then hourly, as S3 applies lifecycle rules in the background (about daily).
    await engine.applyLifecycle();
    engine.lifecycleTimer = setInterval(() => void engine.applyLifecycle().catch(() => undefined), 3_600_000);
    engine.lifecycleTimer.unref();
    return engine;
  }

  /** `<rootDir>/.fw/storage`. */
  static dataDir(rootDir: string): string {
    return path.join(rootDir, '.fw', 'storage');
  }

  /** The variables the dev server gives every function for these buckets (names from core's `bucketEnv` and `ENV`). */
  env(): Record<string, string> {
    const env: Record<string, string> = { ...this.clientEnv() };
    for (const { definition } of this.buckets.values()) {
      const v = definition.variables;
      env[v.bucket] = definition.id;
      env[v.publicUrl] = this.bucketUrl(definition.id);
      env[v.maxUploadBytes] = String(definition.maxUploadBytes);
      env[v.contentTypes] = (definition.allowedContentTypes ?? []).join(',');
      env[v.inlineActiveContent] = definition.inlineActiveContent ? 'true' : 'false';
    }
    return env;
  }

  /** The dev-only variable that lets a function's storage client use the object API (its per-run secret). */
  clientEnv(): Record<string, string> {
    return { [ENV.devStorageToken]: this.clientToken };
  }

  bucketUrl(bucketId: string): string {
    return `${this.baseUrl()}${LOCAL_STORAGE_PATH}/${encodeURIComponent(bucketId)}`;
  }

  /**
   * Deletes the objects that a lifecycle rule with `expireAfterDays` has expired (age from the object's last write).
   * Storage-class transitions (`infrequentAccessAfterDays`, `archiveAfterDays`) change nothing locally: there is one
   * class. Returns the deleted keys by bucket id.
   */
  async applyLifecycle(): Promise<Record<string, string[]>> {
    const now = this.now();
    const deleted: Record<string, string[]> = {};
    for (const { definition, store } of this.buckets.values()) {
      const rules = definition.lifecycle.filter((r) => r.expireAfterDays !== undefined);
      if (!rules.length) continue;
      for (const meta of store.list('', Number.MAX_SAFE_INTEGER).objects) {
        const age = now - Date.parse(meta.lastModified);
        if (rules.some((r) => meta.key.startsWith(r.prefix ?? '') && age >= r.expireAfterDays! * 86_400_000)) {
          await store.delete(meta.key);
          (deleted[definition.id] ??= []).push(meta.key);
        }
      }
    }
    return deleted;
  }

  /** Stops the lifecycle timer and waits for notifications still being delivered. */
  async stop(): Promise<void> {
    clearInterval(this.lifecycleTimer);
    await Promise.allSettled([...this.pending]);
  }

  async handle(request: EngineRequest): Promise<EngineResponse> {
    const [pathPart = '', queryPart = ''] = request.url.split('?', 2) as [string?, string?];
    const query = new URLSearchParams(queryPart);
    const resource = pathPart;
    try {
      if (!pathPart.startsWith(LOCAL_STORAGE_PATH + '/')) throw new S3ErrorResponse('InvalidArgument', `Storage URLs start with ${LOCAL_STORAGE_PATH}/<bucket>.`);
      const rest = pathPart.slice(LOCAL_STORAGE_PATH.length + 1);
      const slash = rest.indexOf('/');
      const bucketId = decode(slash === -1 ? rest : rest.slice(0, slash));
      const rawKey = slash === -1 ? '' : rest.slice(slash + 1);
      const bucket = this.buckets.get(bucketId);
      if (!bucket) throw new S3ErrorResponse('NoSuchBucket', `The specified bucket does not exist: "${bucketId}". Declared buckets: ${[...this.buckets.keys()].join(', ') || 'none'}.`);
      const cors = this.corsHeaders(bucket, request.headers);
      const response = await this.route(bucket, request, rawKey === '' ? undefined : rawKey.split('/').map(decode).join('/'), query);
      return { ...response, headers: { ...cors, ...response.headers } };
    } catch (error) {
      return this.errorResponse(error, resource, request.method);
    }
  }

  private async route(bucket: Bucket, request: EngineRequest, key: string | undefined, query: URLSearchParams): Promise<EngineResponse> {
    const method = request.method.toUpperCase();
    const fromClient = this.isClient(request.headers[LOCAL_CLIENT_HEADER]);
    if (method === 'OPTIONS') return this.preflight(bucket, request.headers);
    if (key === undefined) {
      if (method === 'POST' && query.has('presign')) return this.presign(bucket, request, fromClient);
      if (method === 'POST') return this.postUpload(bucket, request);
      if (method === 'GET' && query.get('list-type') === '2') return this.list(bucket, query, fromClient);
      throw new S3ErrorResponse('MethodNotAllowed', `${method} is not allowed on a bucket here: POST a presigned upload form, or list with the storage client.`);
    }
    const problem = objectKeyProblem(key);
    if (problem !== undefined) throw new S3ErrorResponse('InvalidArgument', `Invalid object key: ${problem}.`);
    switch (method) {
      case 'GET':
      case 'HEAD':
        this.authorizeRead(bucket, key, query, fromClient, method);
        return this.read(bucket, key, method === 'HEAD');
      case 'PUT':
        requireClient(fromClient, 'PUT');
        return this.put(bucket, key, request);
      case 'DELETE':
        requireClient(fromClient, 'DELETE');
        await bucket.store.delete(key);
        return { status: 204, headers: {} };
      default:
        throw new S3ErrorResponse('MethodNotAllowed', `${method} is not allowed on an object.`);
    }
  }

  private presign(bucket: Bucket, request: EngineRequest, fromClient: boolean): Promise<EngineResponse> {
    requireClient(fromClient, 'presigning');
    return (async () => {
      let input: LocalPresignRequest;
      try {
        input = JSON.parse((await smallBody(request.body)).toString('utf8')) as LocalPresignRequest;
      } catch {
        throw new S3ErrorResponse('InvalidArgument', 'The presign request is not JSON.');
      }
      const now = this.now();
      const def = bucket.definition;
      if (input.operation === 'upload') {
        // The engine checks the bucket's limits itself: a function cannot presign past the intent.
        const policy = resolveUploadPolicy({ bucketId: def.id, maxUploadBytes: def.maxUploadBytes, allowedContentTypes: def.allowedContentTypes }, input);
        const expiresAt = new Date(now + policy.expiresIn * 1000);
        const policyText = Buffer.from(JSON.stringify({ expiration: expiresAt.toISOString(), conditions: uploadConditions(def.id, policy) })).toString('base64');
        const fields: Record<string, string> = { bucket: def.id, key: policy.key };
        if (policy.contentType !== undefined) fields['Content-Type'] = policy.contentType;
        fields.Policy = policyText;
        fields[LOCAL_POLICY_SIGNATURE_FIELD] = this.signer.sign(policyText);
        return json(200, { url: this.bucketUrl(def.id), fields, expiresAt: expiresAt.toISOString() } satisfies LocalPresignResponse);
      }
      if (input.operation === 'download') {
        const problem = objectKeyProblem(input.key);
        if (problem !== undefined) throw new S3ErrorResponse('InvalidArgument', `Invalid object key: ${problem}.`);
        const expires = Math.floor(now / 1000) + resolveExpiresIn(input.expiresIn);
        const signature = this.signer.sign(downloadStringToSign(def.id, input.key, expires));
        const url = `${this.bucketUrl(def.id)}/${encodeObjectKey(input.key)}?${LOCAL_EXPIRES_PARAM}=${expires}&${LOCAL_SIGNATURE_PARAM}=${signature}`;
        return json(200, { url, expiresAt: new Date(expires * 1000).toISOString() } satisfies LocalPresignResponse);
      }
      throw new S3ErrorResponse('InvalidArgument', 'operation must be "upload" or "download".');
    })();
  }

  private async postUpload(bucket: Bucket, request: EngineRequest): Promise<EngineResponse> {
    const def = bucket.definition;
    const result = await receivePostUpload(request.headers, request.body, {
      bucketId: def.id,
      store: bucket.store,
      signer: this.signer,
      now: this.now(),
      allowedContentTypes: def.allowedContentTypes,
    });
    this.announce(bucket, result.meta, 'ObjectCreated:Post');
    const location = `${this.bucketUrl(def.id)}/${encodeObjectKey(result.meta.key)}`;
    const headers = { etag: result.meta.etag, location };
    if (result.successStatus === 201) {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Location>${escapeXml(location)}</Location><Bucket>${escapeXml(def.id)}</Bucket><Key>${escapeXml(result.meta.key)}</Key><ETag>${escapeXml(result.meta.etag)}</ETag></PostResponse>`;
      return { status: 201, headers: { ...headers, 'content-type': 'application/xml' }, body: xml };
    }
    return { status: result.successStatus, headers };
  }

  private list(bucket: Bucket, query: URLSearchParams, fromClient: boolean): EngineResponse {
    requireClient(fromClient, 'listing');
    const max = Number(query.get('max-keys') ?? 1000);
    if (!Number.isSafeInteger(max) || max < 1 || max > 1000) throw new S3ErrorResponse('InvalidArgument', 'max-keys must be 1 to 1000.');
    const token = query.get('continuation-token');
    const after = token ? Buffer.from(token, 'base64url').toString('utf8') : undefined;
    const page = bucket.store.list(query.get('prefix') ?? '', max, after);
    const answer: LocalListResponse = {
      objects: page.objects.map((o) => ({ key: o.key, size: o.size, etag: o.etag, lastModified: o.lastModified })),
      cursor: page.nextAfter !== undefined ? Buffer.from(page.nextAfter, 'utf8').toString('base64url') : undefined,
    };
    return json(200, answer);
  }

  private authorizeRead(bucket: Bucket, key: string, query: URLSearchParams, fromClient: boolean, method: string): void {
    const signature = query.get(LOCAL_SIGNATURE_PARAM);
    if (signature !== null) {
      // The signature covers the method (GET), as S3's does: a presigned GET URL does not answer HEAD.
      if (method !== 'GET') throw new S3ErrorResponse('SignatureDoesNotMatch', `The request signature we calculated does not match the signature you provided: this URL was presigned for GET, not ${method}.`);
      const expires = Number(query.get(LOCAL_EXPIRES_PARAM));
      // The signature first: a changed expiry is a tampered URL, not an expired one.
      if (!Number.isSafeInteger(expires) || !this.signer.verify(downloadStringToSign(bucket.definition.id, key, expires), signature)) {
        throw new S3ErrorResponse('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Use the presigned URL unchanged.');
      }
      if (this.now() > expires * 1000) throw new S3ErrorResponse('AccessDenied', 'Request has expired. Presign a new download URL.');
      return;
    }
    if (fromClient || bucket.definition.cdn) return;
    throw new S3ErrorResponse('AccessDenied', `Access Denied: bucket "${bucket.definition.id}" is private (cdn is off). Use a presigned download URL, or set cdn: true in the storage intent to serve objects publicly.`);
  }

  /**
   * An object as served: metadata and bytes of one version, with the serving policy (README, "Serving stored
   * files"): never sniffed, sandboxed, and an attachment when its type can run script, unless the bucket opts in.
   */
  private async read(bucket: Bucket, key: string, headOnly: boolean): Promise<EngineResponse> {
    const object = await bucket.store.openObject(key, !headOnly);
    if (!object) throw new S3ErrorResponse('NoSuchKey', `The specified key does not exist: "${key}".`);
    const { meta } = object;
    const policy = servingPolicy(meta.contentType, bucket.definition.inlineActiveContent);
    const headers: Record<string, string> = {
      'content-type': policy.contentType,
      'content-length': String(meta.size),
      etag: meta.etag,
      'last-modified': new Date(meta.lastModified).toUTCString(),
      // An opted-in bucket renders its pages with script, still in an opaque origin: locally it shares the API's origin.
      ...objectSecurityHeaders(bucket.definition.inlineActiveContent === true),
    };
    if (policy.disposition === 'attachment') headers['content-disposition'] = 'attachment';
    if (meta.cacheControl !== undefined) headers['cache-control'] = meta.cacheControl;
    return { status: 200, headers, body: headOnly ? undefined : object.body };
  }

  /** The function's `put`: the body is streamed to a temp file (never held in memory), then committed whole. */
  private async put(bucket: Bucket, key: string, request: EngineRequest): Promise<EngineResponse> {
    const contentType = String(request.headers['content-type'] ?? 'application/octet-stream');
    const problem = contentTypeProblem(contentType);
    if (problem !== undefined) throw new S3ErrorResponse('InvalidArgument', `Invalid Content-Type ${JSON.stringify(contentType)}: ${problem}.`);
    const cacheControl = request.headers['cache-control'];
    let meta: LocalObjectMeta;
    try {
      const received = await bucket.store.receive(request.body, MAX_PUT_BYTES);
      meta = { key, contentType, size: received.size, etag: received.etag, lastModified: new Date(this.now()).toISOString(), ...(typeof cacheControl === 'string' ? { cacheControl } : {}) };
      await bucket.store.commit(received.tempFile, meta);
    } catch (error) {
      if (error instanceof ObjectTooLargeError) throw new S3ErrorResponse('EntityTooLarge', `Your proposed upload exceeds the maximum allowed size of ${MAX_PUT_BYTES} bytes (S3's limit for one PUT).`);
      // A client that went away is not an engine failure; nothing was stored.
      if (request.body.readableAborted || (request.body as { complete?: boolean }).complete === false) throw new S3ErrorResponse('IncompleteBody', 'The request body ended before it was complete; nothing was stored.');
      throw error;
    }
    this.announce(bucket, meta, 'ObjectCreated:Put');
    return json(200, { etag: meta.etag }, { etag: meta.etag });
  }

  private isClient(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string' || header.length !== this.clientToken.length) return false;
    return timingSafeEqual(Buffer.from(header), Buffer.from(this.clientToken));
  }

  /** Sends the bucket's notifications for a new object, in the background (S3 delivers asynchronously too). */
  private announce(bucket: Bucket, meta: LocalObjectMeta, eventName: string): void {
    const def = bucket.definition;
    def.notifications.forEach((target, i) => {
      if (target.prefix !== undefined && !meta.key.startsWith(target.prefix)) return;
      const log = this.options.log ?? ((m: string) => console.warn(m));
      if (!this.options.notify) {
        log(`storage: upload notification of bucket "${def.id}" not delivered (no notifier)`);
        return;
      }
      const event = objectCreatedEvent({ bucket: def.id, key: meta.key, size: meta.size, etag: meta.etag, eventName, region: this.options.region ?? 'us-east-1', configurationId: `${def.id}-${i}` });
      const delivery = this.options
        .notify(target, event)
        .catch((error: unknown) => log(`storage: upload notification of bucket "${def.id}" to ${target.queue !== undefined ? `queue "${target.queue}"` : `function "${target.function}"`} failed: ${(error as Error).message}`))
        .finally(() => this.pending.delete(delivery));
      this.pending.add(delivery);
    });
  }

  private corsHeaders(bucket: Bucket, headers: IncomingHttpHeaders): Record<string, string> {
    const origin = headers.origin;
    const allowed = bucket.definition.corsOrigins;
    if (typeof origin !== 'string' || !(allowed.includes('*') || allowed.includes(origin))) return {};
    return { 'access-control-allow-origin': allowed.includes('*') ? '*' : origin, 'access-control-expose-headers': 'etag, location', vary: 'Origin' };
  }

  /** Preflights for the presigned flows only: the client header is never allowed, so pages cannot use the object API. */
  private preflight(bucket: Bucket, headers: IncomingHttpHeaders): EngineResponse {
    const cors = this.corsHeaders(bucket, headers);
    const requested = String(headers['access-control-request-headers'] ?? '').toLowerCase();
    if (!cors['access-control-allow-origin'] || requested.includes(LOCAL_CLIENT_HEADER)) {
      throw new S3ErrorResponse('AccessDenied', 'CORSResponse: This CORS request is not allowed. Add the page\'s origin to corsOrigins of the storage intent.');
    }
    return { status: 200, headers: { ...cors, 'access-control-allow-methods': 'GET, HEAD, POST', 'access-control-allow-headers': requested || 'content-type', 'access-control-max-age': '3000' } };
  }

  private errorResponse(error: unknown, resource: string, method: string): EngineResponse {
    let s3: S3ErrorResponse;
    if (error instanceof S3ErrorResponse) s3 = error;
    else if (error instanceof StorageError) s3 = new S3ErrorResponse('InvalidArgument', `${error.message} (${error.code})`);
    else {
      (this.options.log ?? ((m: string) => console.warn(m)))(`storage: internal error on ${method} ${resource}: ${(error as Error)?.stack ?? String(error)}`);
      s3 = new S3ErrorResponse('InternalError', 'We encountered an internal error. Please try again.');
    }
    const body = method.toUpperCase() === 'HEAD' ? undefined : s3ErrorXml(s3.code, s3.message, resource);
    return { status: s3.status, headers: { 'content-type': 'application/xml', 'x-fw-error-code': s3.code }, body };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private baseUrl(): string {
    const base = this.options.baseUrl;
    return (typeof base === 'string' ? base : base()).replace(/\/+$/, '');
  }
}

/** S3's largest single PUT: 5 GiB. */
const MAX_PUT_BYTES = 5 * 1024 ** 3;
/** Largest presign request body (a small JSON document). */
const MAX_PRESIGN_BODY_BYTES = 64 * 1024;

function requireClient(fromClient: boolean, what: string): void {
  if (!fromClient) throw new S3ErrorResponse('AccessDenied', `Access Denied: ${what} needs the storage client of a function (service.storage), which presents this run's secret (${ENV.devStorageToken}); browsers and curl use presigned URLs.`);
}

/** Reads a small request body, refusing more than `MAX_PRESIGN_BODY_BYTES`. */
async function smallBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit, so the client gets the answer rather than a reset connection.
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size <= MAX_PRESIGN_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_PRESIGN_BODY_BYTES) throw new S3ErrorResponse('InvalidArgument', `The presign request is larger than ${MAX_PRESIGN_BODY_BYTES} bytes.`);
  return Buffer.concat(chunks);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new S3ErrorResponse('InvalidArgument', `The URL segment "${segment}" is not valid percent-encoding.`);
  }
}

function json(status: number, value: unknown, extra: Record<string, string> = {}): EngineResponse {
  return { status, headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify(value) };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
