import { isActiveContentType, objectSecurityHeaders } from '@framework/core';
import { mediaType } from '../limits/content-type.js';

/** The policy's type rule lives in core: the CDN's viewer-response function (infra) decides by the same lists. */
export { isActiveContentType };

/** How a download is served: the type sent and whether the browser must save it instead of rendering it. */
export interface ServingPolicy {
  /** The `Content-Type` to send: the stored one when it is a valid media type, `application/octet-stream` otherwise. */
  readonly contentType: string;
  /** `attachment` for types that can run script (unless the bucket opts in), `inline` otherwise. */
  readonly disposition: 'inline' | 'attachment';
}

/**
 * The serving policy of a stored object. `inlineActiveContent` is the bucket's opt-in (the storage intent's
 * `inlineActiveContent`) to render active types from the bucket's URL. An invalid stored type (an object written
 * before types were checked) is served as `application/octet-stream`, as an attachment.
 */
export function servingPolicy(storedContentType: string | undefined, inlineActiveContent = false): ServingPolicy {
  const type = storedContentType === undefined ? undefined : mediaType(storedContentType);
  if (type === undefined) return { contentType: 'application/octet-stream', disposition: 'attachment' };
  return { contentType: storedContentType!, disposition: inlineActiveContent || !isActiveContentType(type) ? 'inline' : 'attachment' };
}

/**
 * Headers the local engine adds to every object it serves: never sniffed, and sandboxed (no script, no same-origin
 * access) even when rendered, because locally objects share the dev server's origin with the app's API. The
 * deployed CDN sends the same ones (its response headers policy).
 */
export const LOCAL_SERVING_HEADERS: Readonly<Record<string, string>> = objectSecurityHeaders(false);
