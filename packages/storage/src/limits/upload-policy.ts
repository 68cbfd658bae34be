import { ContentTypeNotAllowedError, ContentTypeRequiredError, InvalidContentTypeError, InvalidStorageOptionError, UploadTooLargeError } from '../errors.js';
import { validateObjectKey } from '../keys/object-key.js';
import { contentTypeAllowed, contentTypeProblem } from './content-type.js';

/** Presigned URLs live 15 minutes unless asked otherwise. */
export const DEFAULT_EXPIRES_IN = 900;
/** S3's ceiling for SigV4 presigned URLs: 7 days. */
export const MAX_EXPIRES_IN = 7 * 24 * 3600;

/** The limits of a bucket that a presigned upload must stay inside. */
export interface UploadLimits {
  readonly bucketId: string;
  readonly maxUploadBytes: number;
  readonly allowedContentTypes?: readonly string[];
}

export interface PresignUploadOptions {
  /** Object key the upload writes (validated: no `..`, no leading `/`, at most 1024 bytes). */
  readonly key: string;
  /**
   * Exact content type the upload must declare (bound by the signature). Required when the bucket restricts types.
   * @default - any content type (only when the bucket allows any)
   */
  readonly contentType?: string;
  /** Largest accepted upload, bytes. @default - the bucket's maxUploadBytes */
  readonly maxBytes?: number;
  /** Seconds the URL stays valid, 1 to 604800. @default 900 */
  readonly expiresIn?: number;
}

/** A presign request after checking it against the bucket's limits: what the signature binds. */
export interface UploadPolicy {
  readonly key: string;
  readonly contentType?: string;
  readonly maxBytes: number;
  readonly expiresIn: number;
}

/** Checks the request against the bucket's limits (the same rules locally and deployed). */
export function resolveUploadPolicy(limits: UploadLimits, options: PresignUploadOptions): UploadPolicy {
  const key = validateObjectKey(options.key);
  const maxBytes = options.maxBytes ?? limits.maxUploadBytes;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new InvalidStorageOptionError(`maxBytes must be a positive integer, got ${options.maxBytes}`);
  if (maxBytes > limits.maxUploadBytes) throw new UploadTooLargeError(limits.bucketId, maxBytes, limits.maxUploadBytes);
  const restricted = limits.allowedContentTypes !== undefined && limits.allowedContentTypes.length > 0;
  if (options.contentType === undefined) {
    if (restricted) throw new ContentTypeRequiredError(limits.bucketId, limits.allowedContentTypes!);
  } else {
    checkContentType(options.contentType, limits);
  }
  return { key, contentType: options.contentType, maxBytes, expiresIn: resolveExpiresIn(options.expiresIn) };
}

/**
 * Throws `InvalidContentTypeError` unless `contentType` is one valid media type, and `ContentTypeNotAllowedError`
 * unless the bucket's `allowedContentTypes` match it (presigned uploads and `put` alike).
 */
export function checkContentType(contentType: string, limits: Pick<UploadLimits, 'bucketId' | 'allowedContentTypes'>): string {
  const problem = contentTypeProblem(contentType);
  if (problem !== undefined) throw new InvalidContentTypeError(String(contentType), problem);
  if (!contentTypeAllowed(contentType, limits.allowedContentTypes)) throw new ContentTypeNotAllowedError(limits.bucketId, contentType, limits.allowedContentTypes ?? []);
  return contentType;
}

export function resolveExpiresIn(expiresIn: number | undefined): number {
  const value = expiresIn ?? DEFAULT_EXPIRES_IN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_EXPIRES_IN) {
    throw new InvalidStorageOptionError(`expiresIn must be a whole number of seconds from 1 to ${MAX_EXPIRES_IN} (7 days), got ${expiresIn}`);
  }
  return value;
}

/**
 * The POST policy conditions of an upload, in S3's syntax. The local engine checks exactly these, so a policy that
 * works against `fw dev` works against S3.
 */
export function uploadConditions(bucketName: string, policy: UploadPolicy): PolicyCondition[] {
  return [
    { bucket: bucketName },
    { key: policy.key },
    ['content-length-range', 0, policy.maxBytes],
    policy.contentType !== undefined ? ['eq', '$Content-Type', policy.contentType] : ['starts-with', '$Content-Type', ''],
  ];
}

/** A condition of an S3 POST policy. */
export type PolicyCondition =
  | Readonly<Record<string, string>>
  | readonly ['eq' | 'starts-with', string, string]
  | readonly ['content-length-range', number, number];
