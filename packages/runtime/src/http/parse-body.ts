import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidJson } from '../errors.js';

/** `application/json`, `application/problem+json`, `application/vnd.api+json; charset=utf-8`, ... */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  // The media type before any parameter: `application/json` or a `+json` suffix.
  return /^\s*(application\/json|[^;]*\+json)\s*(;|$)/i.test(contentType);
}

function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return /^(text\/|application\/(x-www-form-urlencoded|xml|javascript))|\+xml/i.test(contentType);
}

/**
 * The body a route receives:
 * - empty or absent: `undefined`;
 * - JSON content type (`application/json`, `*+json`): parsed; malformed JSON throws `InvalidJson` (400);
 * - text-like content types (`text/*`, form-encoded, XML) and no content type: the decoded string (form bodies are
 *   not parsed: `new URLSearchParams(body)` does it in one line, and a route can tell the cases apart);
 * - any other content type sent base64-encoded by the gateway (images, PDFs, octet streams): a `Buffer`.
 * `headers` must have lower-case names.
 */
export function parseBody(event: APIGatewayProxyEventV2, headers: Readonly<Record<string, string>>): unknown {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const contentType = headers['content-type'];
  if (isJsonContentType(contentType)) {
    const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new InvalidJson(undefined, { cause: error });
    }
  }
  if (!event.isBase64Encoded) return raw;
  const bytes = Buffer.from(raw, 'base64');
  return isTextContentType(contentType) ? bytes.toString('utf8') : bytes;
}
