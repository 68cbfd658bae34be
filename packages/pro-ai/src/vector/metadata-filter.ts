import { AiUsageError } from '../errors.js';

/** Metadata a chunk must carry: each key equal to its value (jsonb containment, `metadata @> filter`). */
export type MetadataFilter = Readonly<Record<string, unknown>>;

/** The filter as JSON text, after checking it is a plain object of JSON values. */
export function filterJson(filter: MetadataFilter | undefined): string {
  if (filter === undefined) return '{}';
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter) || (Object.getPrototypeOf(filter) !== Object.prototype && Object.getPrototypeOf(filter) !== null)) {
    throw new AiUsageError('filter must be a plain object of metadata values, e.g. { status: "open" }');
  }
  try {
    return JSON.stringify(filter);
  } catch (error) {
    throw new AiUsageError(`filter must be JSON: ${(error as Error).message}`);
  }
}

const COLLECTION = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** Collection names: letters, digits, `_`, `.`, `:`, `-`, 1 to 128 characters. */
export function checkCollection(name: unknown): string {
  if (typeof name !== 'string' || !COLLECTION.test(name)) {
    throw new AiUsageError(`collection must be 1 to 128 letters, digits, "_", ".", ":" or "-", starting with a letter or digit; got ${JSON.stringify(name)}`);
  }
  return name;
}
