import type { Readable } from 'node:stream';

/** Puts are buffered: S3's PutObject needs the length up front, and dev-sized objects fit in memory. */
export async function bodyBytes(body: string | Uint8Array | Readable): Promise<Uint8Array> {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
