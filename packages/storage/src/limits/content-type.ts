import { parse } from 'content-type';

/**
 * Why `contentType` is not one valid media type (RFC 9110 §8.3.1: `type/subtype` tokens plus `; name=value`
 * parameters), or `undefined` when it is. A list (`image/png,text/html`: browsers take the last type, allowlists the
 * first), CR/LF (header injection) or anything else that is not exactly one media type is refused: the value is
 * signed into policies, stored and sent back as a response header.
 */
export function contentTypeProblem(contentType: unknown): string | undefined {
  if (typeof contentType !== 'string') return 'the content type must be a string';
  if (contentType.length === 0) return 'the content type is empty';
  if (contentType.length > MAX_CONTENT_TYPE_LENGTH) return `the content type is longer than ${MAX_CONTENT_TYPE_LENGTH} characters`;
  // The parser accepts surrounding whitespace (header values are trimmed); a stored type must not carry any.
  if (contentType.trim() !== contentType) return 'the content type has leading or trailing whitespace';
  try {
    parse(contentType);
    return undefined;
  } catch {
    return 'it is not one media type of the form "type/subtype" with optional "; name=value" parameters (no commas, no line breaks, no spaces inside names)';
  }
}

/** Longest content type accepted (S3 keeps metadata headers within 2 KB; a real type is far shorter). */
export const MAX_CONTENT_TYPE_LENGTH = 256;

/** `Text/Plain; charset=utf-8` → `text/plain`: the media type a pattern is matched against; undefined when invalid. */
export function mediaType(contentType: string): string | undefined {
  if (contentTypeProblem(contentType) !== undefined) return undefined;
  return parse(contentType).type;
}

/**
 * Whether `contentType` is one valid media type matching one of `allowed` (`image/png`, or `image/*` for a whole
 * family). Undefined or empty `allowed`: any valid media type.
 */
export function contentTypeAllowed(contentType: string, allowed: readonly string[] | undefined): boolean {
  const type = mediaType(contentType);
  if (type === undefined) return false;
  if (allowed === undefined || allowed.length === 0) return true;
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.endsWith('/*') ? type.startsWith(p.slice(0, -1)) && type.length > p.length - 1 : type === p;
  });
}
