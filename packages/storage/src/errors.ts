import { FrameworkError } from '@framework/core/names';

/**
 * Errors of @framework/storage. Every one has a stable `code`; README.md's error table lists each with its cause and
 * fix, and `test/errors.test.ts` keeps the two in step.
 */
export class StorageError extends FrameworkError {}

/** An object key the framework refuses (path escape, control characters, too long). */
export class InvalidObjectKeyError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_INVALID_KEY';
  public readonly key: string;
  constructor(key: string, problem: string) {
    super(InvalidObjectKeyError.CODE, `Invalid object key ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}...` : key)}: ${problem}. Use "/"-separated segments without "." or "..", no leading "/", no backslash or control characters, at most 1024 bytes.`);
    this.key = key;
  }
}

/** The function asked for a bucket that the app does not declare (its variables are not set). */
export class BucketNotConfiguredError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_BUCKET_NOT_CONFIGURED';
  constructor(bucketId: string, variable: string) {
    super(BucketNotConfiguredError.CODE, `Bucket "${bucketId}" is not configured: ${variable} is not set. Declare it in fw.config.ts (infrastructure.storage: [{ id: '${bucketId}' }]) and run the function through fw dev or a deployed stage.`);
  }
}

/** A presigned upload asked for more bytes than the bucket's `maxUploadBytes`. */
export class UploadTooLargeError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_UPLOAD_TOO_LARGE';
  constructor(bucketId: string, requested: number, limit: number) {
    super(UploadTooLargeError.CODE, `An upload of up to ${requested} bytes exceeds bucket "${bucketId}"'s maxUploadBytes (${limit}). Pass a smaller maxBytes or raise maxUploadBytes in the storage intent.`);
  }
}

/** A presigned upload named a content type that the bucket's `allowedContentTypes` do not match. */
export class ContentTypeNotAllowedError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_CONTENT_TYPE_NOT_ALLOWED';
  constructor(bucketId: string, contentType: string, allowed: readonly string[]) {
    super(ContentTypeNotAllowedError.CODE, `Content type "${contentType}" is not allowed in bucket "${bucketId}" (allowed: ${allowed.join(', ')}). Use one of those or add it to allowedContentTypes in the storage intent.`);
  }
}

/** A content type that is not exactly one valid media type (a list, CR/LF, bad syntax). */
export class InvalidContentTypeError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_INVALID_CONTENT_TYPE';
  public readonly contentType: string;
  constructor(contentType: string, problem: string) {
    super(InvalidContentTypeError.CODE, `Invalid content type ${JSON.stringify(contentType.length > 80 ? `${contentType.slice(0, 80)}...` : contentType)}: ${problem}. Pass one media type such as "image/png" or "text/plain; charset=utf-8".`);
    this.contentType = contentType;
  }
}

/** A presigned upload without a content type, for a bucket that restricts content types. */
export class ContentTypeRequiredError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_CONTENT_TYPE_REQUIRED';
  constructor(bucketId: string, allowed: readonly string[]) {
    super(ContentTypeRequiredError.CODE, `Bucket "${bucketId}" only accepts ${allowed.join(', ')}: pass presignUpload({ contentType }) so the signature can bind the type.`);
  }
}

/** An option outside its range (expiry, byte count, page size). */
export class InvalidStorageOptionError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_INVALID_OPTION';
  constructor(message: string) {
    super(InvalidStorageOptionError.CODE, message);
  }
}

/** The object store (S3, or the dev server's local engine) refused a request. `s3Code` is its error code. */
export class StorageRequestError extends StorageError {
  public static readonly CODE = 'FW_ERR_STORAGE_REQUEST';
  public readonly s3Code: string;
  public readonly status: number;
  constructor(s3Code: string, status: number, message: string, options?: { cause?: unknown }) {
    super(StorageRequestError.CODE, `Object storage refused the request (${status} ${s3Code}): ${message}`, options);
    this.s3Code = s3Code;
    this.status = status;
  }
}

/** Every error code of this package, with its cause: kept in step with README.md by a test. */
export const STORAGE_ERROR_CODES = {
  [InvalidObjectKeyError.CODE]: 'An object key that could escape a folder, holds control characters or exceeds 1024 bytes.',
  [BucketNotConfiguredError.CODE]: 'No storage intent with that id (its FW_STORAGE_<ID>_BUCKET variable is not set).',
  [UploadTooLargeError.CODE]: 'presignUpload maxBytes above the intent maxUploadBytes.',
  [ContentTypeNotAllowedError.CODE]: 'presignUpload or put with a content type outside allowedContentTypes.',
  [InvalidContentTypeError.CODE]: 'presignUpload or put with a content type that is not one valid media type (a list, CR/LF, bad syntax).',
  [ContentTypeRequiredError.CODE]: 'presignUpload without contentType on a bucket with allowedContentTypes.',
  [InvalidStorageOptionError.CODE]: 'expiresIn, maxBytes or limit outside its range.',
  [StorageRequestError.CODE]: 'S3 or the local engine answered an error (see s3Code).',
} as const;
