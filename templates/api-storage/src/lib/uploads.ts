import { randomUUID } from 'node:crypto';
import { createStorageService } from '@framework/storage';

/** What `POST /uploads` accepts: the file's name and type, declared before the browser uploads it. */
export interface UploadRequest {
  readonly fileName: string;
  readonly contentType: string;
}

/** Content types the sample accepts; the signature binds the declared one, so a client cannot upload another. */
export const ALLOWED_CONTENT_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'application/pdf', 'text/plain'];
/** 10 MiB, as the `uploads` intent's `maxUploadBytes`. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The `uploads` bucket: S3 deployed, the dev server's local store under `fw dev`. */
const storage = createStorageService();

/** Checks a request body: returns the problem, or undefined when it is a valid upload request. */
export function checkUploadRequest(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'expected a JSON object { "fileName": "...", "contentType": "..." }';
  const { fileName, contentType } = body as { fileName?: unknown; contentType?: unknown };
  if (typeof fileName !== 'string' || !/^[\w. -]{1,200}$/.test(fileName)) return '"fileName" must be 1 to 200 letters, digits, spaces, ".", "-" or "_"';
  if (typeof contentType !== 'string' || !ALLOWED_CONTENT_TYPES.includes(contentType)) return `"contentType" must be one of ${ALLOWED_CONTENT_TYPES.join(', ')}`;
  return undefined;
}

/**
 * A presigned form upload for one new object under `uploads/<owner>/`: the browser POSTs the form fields and the
 * file straight to storage (the function never handles the bytes).
 */
export async function presignUpload(owner: string, request: UploadRequest) {
  const key = `uploads/${owner.replace(/[^\w-]/g, '_')}/${randomUUID()}-${request.fileName.replace(/ /g, '_')}`;
  return storage.bucket('uploads').presignUpload({ key, contentType: request.contentType, maxBytes: MAX_UPLOAD_BYTES, expiresIn: 900 });
}
