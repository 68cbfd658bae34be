import { ENV, bucketEnv } from '@framework/core/names';
import { BucketNotConfiguredError } from '../errors.js';

/** What a function knows about one bucket, from the variables `fw dev` or the deployed stack set. */
export interface BucketSettings {
  readonly id: string;
  /** The S3 bucket name deployed; the bucket id locally. */
  readonly bucketName: string;
  /** Base URL of public objects: the CDN deployed (when `cdn` is on), the dev server's bucket URL locally. */
  readonly publicUrl: string;
  readonly maxUploadBytes: number;
  /** Undefined: any content type. */
  readonly allowedContentTypes?: readonly string[];
  /** The intent's `inlineActiveContent`: types that can run script are served inline, not as attachments. */
  readonly inlineActiveContent: boolean;
  /** Set when running under `fw dev`: the dev server's base URL. */
  readonly devEndpoint?: string;
  /** Set when running under `fw dev`: the secret the local engine's object API asks of the storage client. */
  readonly devStorageToken?: string;
  readonly region?: string;
}

/** The intent's default, used when the variable is absent (an older stack). */
const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Reads a bucket's settings from the environment; throws `BucketNotConfiguredError` when it is not declared. */
export function readBucketSettings(id: string, env: NodeJS.ProcessEnv = process.env): BucketSettings {
  const names = bucketEnv(id);
  const bucketName = env[names.bucket];
  if (!bucketName) throw new BucketNotConfiguredError(id, names.bucket);
  const max = Number(env[names.maxUploadBytes]);
  const types = (env[names.contentTypes] ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  return {
    id,
    bucketName,
    publicUrl: (env[names.publicUrl] ?? '').replace(/\/+$/, ''),
    maxUploadBytes: Number.isSafeInteger(max) && max > 0 ? max : DEFAULT_MAX_UPLOAD_BYTES,
    allowedContentTypes: types.length ? types : undefined,
    inlineActiveContent: env[names.inlineActiveContent] === 'true',
    devEndpoint: env[ENV.devEndpoint] || undefined,
    devStorageToken: env[ENV.devStorageToken] || undefined,
    region: env[ENV.region] || env.AWS_REGION || undefined,
  };
}
