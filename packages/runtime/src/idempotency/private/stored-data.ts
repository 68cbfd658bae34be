import { gunzipSync, gzipSync } from 'node:zlib';
import { IdempotencyResponseTooLargeError } from '../errors.js';

/**
 * How results are stored, the same in every backend so local development fails where the cloud would.
 * A DynamoDB item holds at most 400 KB; results above `COMPRESS_ABOVE_BYTES` are gzip-compressed, and a result that
 * is still above `MAX_STORED_BYTES` is refused with `IdempotencyResponseTooLargeError` (never stored cut short).
 */
export const COMPRESS_ABOVE_BYTES = 32 * 1024;
/** 400 KB item limit minus room for the key and the other attributes (a key is at most ~1 KB here). */
export const MAX_STORED_BYTES = 390 * 1024;

export type EncodedData = { readonly text: string } | { readonly gzip: Uint8Array };

export function encodeStoredData(data: string): EncodedData {
  const bytes = Buffer.byteLength(data, 'utf8');
  if (bytes <= COMPRESS_ABOVE_BYTES) return { text: data };
  const gzip = gzipSync(data);
  if (gzip.byteLength > MAX_STORED_BYTES) throw new IdempotencyResponseTooLargeError(gzip.byteLength, MAX_STORED_BYTES);
  return { gzip };
}

export function decodeStoredData(encoded: EncodedData): string {
  return 'text' in encoded ? encoded.text : gunzipSync(encoded.gzip).toString('utf8');
}
