import type { Codec } from '../config/codec.js';
import { envToken } from '../environment/env-token.js';
import type { ConfigProblem } from '../errors.js';
import { fixedValue, outputRef, type CodecKit, type IntentKindModule, type KindCheckContext, type KindValue } from './intent-kind.js';

/** One lifecycle rule of a bucket. */
export interface LifecycleRule {
  /** Only objects under this key prefix. @default - every object */
  readonly prefix?: string;
  readonly expireAfterDays?: number;
  readonly infrequentAccessAfterDays?: number;
  readonly archiveAfterDays?: number;
  /** @default 7 (set on every bucket even without rules) */
  readonly abortIncompleteUploadsAfterDays?: number;
}

/** Where a bucket announces that an object arrived. */
export interface UploadNotification {
  /** Id of a queue intent that receives a message per new object. */
  readonly queue?: string;
  /** Id of a standalone function invoked per new object. */
  readonly function?: string;
  /** Only keys under this prefix. @default - every key */
  readonly prefix?: string;
}

/** An object-storage bucket, optionally behind the CDN. */
export interface StorageIntent {
  readonly id: string;
  /** Serve objects through the CDN (origin access control; the bucket stays private). @default false */
  readonly cdn?: boolean;
  /** @default [] */
  readonly lifecycle?: readonly LifecycleRule[];
  /** Browser origins allowed to upload and download directly. @default [] */
  readonly corsOrigins?: readonly string[];
  /** Largest upload a presigned URL accepts, bytes. @default 10485760 (10 MiB) */
  readonly maxUploadBytes?: number;
  /** Content types a presigned upload accepts, e.g. `image/*`. @default - any */
  readonly allowedContentTypes?: readonly string[];
  /**
   * Serve stored types that can run script (HTML, SVG, XML, JavaScript) inline from the bucket's URLs instead of as
   * attachments. Only for buckets that hold trusted pages. @default false
   */
  readonly inlineActiveContent?: boolean;
  /** Keep every version of every object. @default false */
  readonly versioned?: boolean;
  /** @default - none */
  readonly notifications?: readonly UploadNotification[];
}

/** The codec of `infrastructure.storage` (built from the kit: this module stays free of io-ts at run time). */
export function storageCodec({ c, id, functionId }: CodecKit): Codec<readonly StorageIntent[]> {
  return c.array(
    c.struct<StorageIntent>('a storage intent { id }', {
      id: c.required(id),
      cdn: c.optional(c.boolean),
      lifecycle: c.optional(
        c.array(
          c.struct<LifecycleRule>('a lifecycle rule', {
            prefix: c.optional(c.text(1024)),
            expireAfterDays: c.optional(c.integer(1, 36500)),
            infrequentAccessAfterDays: c.optional(c.integer(30, 36500)),
            archiveAfterDays: c.optional(c.integer(1, 36500)),
            abortIncompleteUploadsAfterDays: c.optional(c.integer(1, 365)),
          }),
        ),
      ),
      corsOrigins: c.optional(c.array(c.pattern('an origin such as "https://app.example.com" or "*"', /^(\*|https?:\/\/[^\s/]+)$/))),
      maxUploadBytes: c.optional(c.integer(1, 5 * 1024 ** 3)),
      allowedContentTypes: c.optional(c.array(c.pattern('a content type such as "image/png" or "image/*"', /^[\w.+-]+\/(\*|[\w.+-]+)$/))),
      inlineActiveContent: c.optional(c.boolean),
      versioned: c.optional(c.boolean),
      notifications: c.optional(
        c.array(
          c.struct<UploadNotification>('an upload notification { queue } or { function }', {
            queue: c.optional(id),
            function: c.optional(functionId),
            prefix: c.optional(c.text(1024)),
          }),
        ),
      ),
    }),
  );
}

/** Outputs of a storage (bucket) intent that reach functions. */
export const BUCKET_OUTPUTS = ['bucket', 'publicUrl'] as const;

/** Variables of a storage (bucket) intent: its outputs and the limits the storage client enforces. */
export function bucketEnv(id: string) {
  const t = envToken(id);
  return {
    bucket: `FW_STORAGE_${t}_BUCKET`,
    /** Base URL objects are served from (the CDN when enabled, else the bucket's regional endpoint / the dev server). */
    publicUrl: `FW_STORAGE_${t}_URL`,
    /** The intent's `maxUploadBytes` (fixed value), so a function's presigned uploads honor it deployed too. */
    maxUploadBytes: `FW_STORAGE_${t}_MAX_UPLOAD_BYTES`,
    /** The intent's `allowedContentTypes`, comma-separated; empty for any (fixed value). */
    contentTypes: `FW_STORAGE_${t}_CONTENT_TYPES`,
    /** The intent's `inlineActiveContent`, `true` or `false` (fixed value). */
    inlineActiveContent: `FW_STORAGE_${t}_INLINE_ACTIVE_CONTENT`,
  } as const;
}

export interface BucketDefinition {
  readonly id: string;
  readonly cdn: boolean;
  readonly lifecycle: readonly LifecycleRule[];
  readonly corsOrigins: readonly string[];
  readonly maxUploadBytes: number;
  /** Undefined: any content type. */
  readonly allowedContentTypes?: readonly string[];
  /** Types that can run script are served inline (true) or as attachments (false). */
  readonly inlineActiveContent: boolean;
  readonly versioned: boolean;
  readonly notifications: readonly UploadNotification[];
  readonly variables: ReturnType<typeof bucketEnv>;
}

/** Each upload notification targets exactly one of a queue or a function, and one the app declares. */
function checkStorage(buckets: readonly StorageIntent[], { intentIds, functionFiles, functionsDir }: KindCheckContext): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  buckets.forEach((bucket, i) =>
    (bucket.notifications ?? []).forEach((n, j) => {
      const at = `infrastructure.storage[${i}].notifications[${j}]`;
      if ((n.queue === undefined) === (n.function === undefined)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: at, message: 'expected exactly one of "queue" or "function"' });
      if (n.queue !== undefined && !intentIds('queues').includes(n.queue)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.queue`, message: `no queue intent has id ${JSON.stringify(n.queue)}` });
      if (n.function !== undefined && !functionFiles.some((f) => f.id === n.function)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.function`, message: `no function file ${functionsDir}/${n.function}.ts` });
    }),
  );
  return problems;
}

/** `infrastructure.storage`: object-storage buckets. */
export const storageKind: IntentKindModule<readonly StorageIntent[], readonly BucketDefinition[], (typeof BUCKET_OUTPUTS)[number], 'storage'> = {
  configKey: 'storage',
  ids: 'flat',
  codec: storageCodec,
  check: checkStorage,
  outputs: BUCKET_OUTPUTS,
  build: (intents) =>
    (intents ?? []).map((b) => ({
      id: b.id,
      cdn: b.cdn ?? false,
      lifecycle: b.lifecycle ?? [],
      corsOrigins: b.corsOrigins ?? [],
      maxUploadBytes: b.maxUploadBytes ?? 10 * 1024 * 1024,
      allowedContentTypes: b.allowedContentTypes,
      inlineActiveContent: b.inlineActiveContent ?? false,
      versioned: b.versioned ?? false,
      notifications: b.notifications ?? [],
      variables: bucketEnv(b.id),
    })),
  environment: (buckets) => {
    const env: Record<string, KindValue<(typeof BUCKET_OUTPUTS)[number]>> = {};
    for (const { id, maxUploadBytes, allowedContentTypes, inlineActiveContent, variables: v } of buckets) {
      env[v.bucket] = outputRef(id, 'bucket');
      env[v.publicUrl] = outputRef(id, 'publicUrl');
      // Limits are fixed values: the storage client reads them to refuse a presign the intent does not allow.
      env[v.maxUploadBytes] = fixedValue(String(maxUploadBytes));
      env[v.contentTypes] = fixedValue((allowedContentTypes ?? []).join(','));
      // The serving policy of presigned downloads: the deployed client sets S3's response overrides from it.
      env[v.inlineActiveContent] = fixedValue(inlineActiveContent ? 'true' : 'false');
    }
    return env;
  },
  units: () => [],
};
