/**
 * How stored objects are served to browsers, one policy for every place that serves them: the storage client's
 * presigned downloads, the local storage engine, and the CDN's viewer-response function in the cloud. Kept in core
 * because both interpreters (the dev engine and the synthesized distribution) must decide the same way.
 */

/** Media type families a browser only ever displays (or plays) passively. */
export const PASSIVE_MEDIA_FAMILIES: readonly string[] = ['image/', 'audio/', 'video/', 'font/'];

/** Single media types a browser only displays passively. Everything else that renders is treated as active. */
export const PASSIVE_MEDIA_TYPES: readonly string[] = [
  'text/plain', 'text/csv', 'text/markdown', 'application/pdf', 'application/json', 'application/octet-stream', 'application/zip', 'application/gzip',
];

const PASSIVE_TYPE_SET = new Set(PASSIVE_MEDIA_TYPES);

/**
 * Whether a media type (no parameters, any case) can run script when a browser opens it: HTML, XHTML, SVG and any XML
 * (`*\/xml`, `*+xml`: XSLT and XHTML namespaces run script), JavaScript, and every type that is not known to be
 * passive. An allowlist of passive types on purpose: a type nobody thought of is saved, not rendered.
 */
export function isActiveContentType(type: string): boolean {
  const t = type.toLowerCase();
  if (t.endsWith('+xml') || t.endsWith('/xml')) return true;
  if (PASSIVE_TYPE_SET.has(t)) return false;
  return !PASSIVE_MEDIA_FAMILIES.some((family) => t.startsWith(family));
}

/**
 * Security headers on every served object: never sniffed, and sandboxed (no script, opaque origin) even when rendered.
 * A bucket that opts in with `inlineActiveContent` lets its pages run script, still in an opaque origin.
 */
export function objectSecurityHeaders(inlineActiveContent: boolean): Readonly<Record<'x-content-type-options' | 'content-security-policy', string>> {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': inlineActiveContent ? 'sandbox allow-scripts' : 'sandbox',
  };
}
