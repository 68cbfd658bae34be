import { randomUUID } from 'node:crypto';

/**
 * The S3 error codes the local engine answers with, and their statuses: the codes S3 uses for the same failure, so
 * code written against S3's error responses behaves the same under `fw dev`.
 */
export const S3_ERROR_STATUS = {
  /** Expired URL or policy, a condition of the policy not met, an unsigned write, a private bucket read. */
  AccessDenied: 403,
  /** The signature does not match the URL or the policy (tampered). */
  SignatureDoesNotMatch: 403,
  /** The upload exceeds the policy's content-length-range. */
  EntityTooLarge: 400,
  /** The upload is below the policy's content-length-range. */
  EntityTooSmall: 400,
  /** A bad object key, query parameter or body. */
  InvalidArgument: 400,
  /** The form is not a valid S3 POST upload (no file field, not multipart). */
  MalformedPOSTRequest: 400,
  /** The request ended before all of its body arrived (the client disconnected). */
  IncompleteBody: 400,
  NoSuchKey: 404,
  NoSuchBucket: 404,
  MethodNotAllowed: 405,
  InternalError: 500,
} as const;

export type S3ErrorCode = keyof typeof S3_ERROR_STATUS;

export class S3ErrorResponse extends Error {
  public readonly status: number;
  constructor(
    public readonly code: S3ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = S3_ERROR_STATUS[code];
  }
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** S3's XML error document. */
export function s3ErrorXml(code: string, message: string, resource: string, requestId: string = randomUUID()): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message><Resource>${escapeXml(resource)}</Resource><RequestId>${escapeXml(requestId)}</RequestId></Error>`;
}
