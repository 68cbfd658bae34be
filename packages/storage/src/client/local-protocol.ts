/**
 * The HTTP protocol between the storage client inside a function and the dev server's local engine, under the
 * bucket's `FW_STORAGE_<ID>_URL` (`<dev server>/_dev/storage/<bucketId>`):
 *
 * | request                                   | who          | does                                          |
 * |-------------------------------------------|--------------|-----------------------------------------------|
 * | `POST <url>` multipart form               | anyone       | presigned upload (checked like S3's POST policy) |
 * | `GET/HEAD <url>/<key>?X-Fw-Expires&X-Fw-Signature` | anyone | presigned download                        |
 * | `GET/HEAD <url>/<key>`                    | anyone       | public read, only when the intent has `cdn: true` |
 * | `POST <url>?presign` JSON                 | client       | signs an upload or a download                 |
 * | `PUT/GET/HEAD/DELETE <url>/<key>`         | client       | object API of the function                    |
 * | `GET <url>?list-type=2&prefix&max-keys&continuation-token` | client | listing, JSON                      |
 *
 * "client" requests carry the header below, whose value is the per-run secret the dev server hands to functions in
 * `FW_DEV_STORAGE_TOKEN` (a new one on every start, never on disk): a web page or another program does not know it, so
 * it can only use the presigned URLs, as with S3, where the object API needs IAM credentials. (Browsers cannot even
 * send the header cross-origin: the engine refuses the CORS preflight that would allow it.)
 */
export const LOCAL_CLIENT_HEADER = 'x-fw-storage-client';

/** Query parameters of a locally presigned download. */
export const LOCAL_EXPIRES_PARAM = 'X-Fw-Expires';
export const LOCAL_SIGNATURE_PARAM = 'X-Fw-Signature';
/** Form field carrying the HMAC of the base64 policy in a locally presigned upload (S3: `X-Amz-Signature`). */
export const LOCAL_POLICY_SIGNATURE_FIELD = 'X-Fw-Signature';

/** Body of `POST <url>?presign`. */
export type LocalPresignRequest =
  | { readonly operation: 'upload'; readonly key: string; readonly contentType?: string; readonly maxBytes: number; readonly expiresIn: number }
  | { readonly operation: 'download'; readonly key: string; readonly expiresIn: number };

/** Answer of `POST <url>?presign`. */
export interface LocalPresignResponse {
  readonly url: string;
  readonly fields?: Record<string, string>;
  /** ISO 8601. */
  readonly expiresAt: string;
}

/** Answer of a listing. */
export interface LocalListResponse {
  readonly objects: { key: string; size: number; etag: string; lastModified: string }[];
  readonly cursor?: string;
}

/** Reads `<Code>` and `<Message>` of an S3-style XML error body. */
export function parseS3ErrorXml(text: string): { code: string; message: string } | undefined {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  if (code === undefined) return undefined;
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '';
  return { code, message: message.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&') };
}
