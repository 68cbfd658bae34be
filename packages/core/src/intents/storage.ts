import type { LifecycleRule, UploadNotification } from '../config/intents.js';
import { envToken } from '../environment/env-token.js';
import { fixedValue, outputRef, type IntentKindModule, type KindValue } from './intent-kind.js';

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

/** `infrastructure.storage`: object-storage buckets. */
export const storageKind: IntentKindModule<readonly BucketDefinition[], (typeof BUCKET_OUTPUTS)[number]> = {
  outputs: BUCKET_OUTPUTS,
  build: ({ infrastructure }) =>
    (infrastructure.storage ?? []).map((b) => ({
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
