/** `Text/Plain; charset=utf-8` → `text/plain`: the media type a pattern is matched against. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether `contentType` matches one of `allowed` (`image/png`, or `image/*` for a whole family). Undefined: any. */
export function contentTypeAllowed(contentType: string, allowed: readonly string[] | undefined): boolean {
  if (allowed === undefined || allowed.length === 0) return true;
  const type = mediaType(contentType);
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.endsWith('/*') ? type.startsWith(p.slice(0, -1)) && type.length > p.length - 1 : type === p;
  });
}
