import { createHash, randomBytes } from 'node:crypto';

/** Each connection's own prefix: a named statement is created once per connection and reused by it. */
const connectionTags = new WeakMap<object, string>();
/** The hash of each statement text seen (texts are the code's own, a few dozen; bounded anyway). */
const textHashes = new Map<string, string>();
const MAX_HASHED_TEXTS = 1000;
/** Unique within this process; the random part keeps two processes (or worker threads) apart. */
const processTag = randomBytes(4).toString('hex');
let nextConnection = 0;

/**
 * The name under which `connection` keeps `text` prepared (`QueryOptions.prepare`): one per text and connection.
 *
 * Per connection, not per text, because a session is not always one connection: PGlite under `fw dev` (and in tests)
 * serves every client connection from one backend session, where a name two connections shared would be "already
 * exists" (42P05) for the second. With a name of its own, each connection parses its statement once and the names
 * never meet, on PGlite as on a server (where they are per session anyway).
 */
export function preparedStatementName(connection: object, text: string): string {
  let tag = connectionTags.get(connection);
  if (tag === undefined) {
    tag = `${processTag}${(nextConnection++).toString(36)}`;
    connectionTags.set(connection, tag);
  }
  let hash = textHashes.get(text);
  if (hash === undefined) {
    if (textHashes.size >= MAX_HASHED_TEXTS) textHashes.clear();
    hash = createHash('sha1').update(text).digest('hex').slice(0, 16);
    textHashes.set(text, hash);
  }
  // PostgreSQL names are at most 63 bytes: `fw_` + 8 + a few + `_` + 16.
  return `fw_${tag}_${hash}`;
}
