import { mediaType } from '../limits/content-type.js';

/** How a download is served: the type sent and whether the browser must save it instead of rendering it. */
export interface ServingPolicy {
  /** The `Content-Type` to send: the stored one when it is a valid media type, `application/octet-stream` otherwise. */
  readonly contentType: string;
  /** `attachment` for types that can run script (unless the bucket opts in), `inline` otherwise. */
  readonly disposition: 'inline' | 'attachment';
}

/** Families a browser only ever displays (or plays) passively; everything else that renders is treated as active. */
const PASSIVE_FAMILIES = ['image/', 'audio/', 'video/', 'font/'];
const PASSIVE_TYPES = new Set(['text/plain', 'text/csv', 'text/markdown', 'application/pdf', 'application/json', 'application/octet-stream', 'application/zip', 'application/gzip']);

/**
 * Whether a media type can run script when a browser opens it: HTML, XHTML, SVG and any XML (`*\/xml`, `*+xml`: XSLT
 * and XHTML namespaces run script), JavaScript, and every type that is not known to be passive. The list is an
 * allowlist of passive types on purpose: a type nobody thought of is served as an attachment, not rendered.
 */
export function isActiveContentType(type: string): boolean {
  const t = type.toLowerCase();
  if (t.endsWith('+xml') || t.endsWith('/xml')) return true;
  if (PASSIVE_TYPES.has(t)) return false;
  return !PASSIVE_FAMILIES.some((family) => t.startsWith(family));
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
 * access) even when rendered, because locally objects share the dev server's origin with the app's API.
 */
export const LOCAL_SERVING_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
};
