import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * What makes two requests "the same" for a key: method, path and body (as sent, base64 decoded). Query string and
 * headers are left out on purpose: clients add tracing headers and cache busters on retries.
 */
export function requestFingerprint(event: APIGatewayProxyEventV2): string {
  const method = event.requestContext?.http?.method ?? '';
  const path = event.rawPath ?? event.requestContext?.http?.path ?? '';
  const body = event.body === undefined ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return hashParts([method.toUpperCase(), path, body]);
}

/** Fingerprint of a task input (any JSON value). */
export function valueFingerprint(value: unknown): string {
  return hashParts([JSON.stringify(value) ?? 'undefined']);
}

function hashParts(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(String(part.length)).update(':').update(part);
  return hash.digest('base64url');
}
