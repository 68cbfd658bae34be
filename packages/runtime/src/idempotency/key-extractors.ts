import type { MiddlewareRequest } from '../middleware/types.js';

/**
 * Reads the idempotency key of a request. `source` names where it comes from; it appears in the 400 message when a
 * required key is missing.
 */
export interface KeyExtractor {
  (request: MiddlewareRequest<unknown>): string | undefined;
  readonly source: string;
}

/** The key from a request header, matched case-insensitively (HTTP API lowercases header names; proxies may not). */
export function headerKeyExtractor(name: string): KeyExtractor {
  const lower = name.toLowerCase();
  const extract = (request: MiddlewareRequest<unknown>): string | undefined => {
    const headers = request.event.headers ?? {};
    let value = headers[lower] ?? headers[name];
    if (value === undefined) {
      for (const [header, v] of Object.entries(headers)) if (header.toLowerCase() === lower) value = v;
    }
    const trimmed = value?.trim();
    return trimmed ? trimmed : undefined;
  };
  return Object.assign(extract, { source: `the ${name} header` });
}

/**
 * The key from a field of the parsed JSON body; `a.b` reads a nested field. Strings and numbers are accepted
 * (a number becomes its decimal text).
 */
export function bodyFieldKeyExtractor(field: string): KeyExtractor {
  const path = field.split('.');
  const extract = (request: MiddlewareRequest<unknown>): string | undefined => {
    let value: unknown = request.body;
    for (const part of path) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    return undefined;
  };
  return Object.assign(extract, { source: `the body field "${field}"` });
}

/** The default header: `Idempotency-Key`, the name of the IETF draft and of the payment APIs clients already know. */
export const DEFAULT_IDEMPOTENCY_HEADER = 'Idempotency-Key';
