/**
 * The codes of the error bodies `fw dev` writes itself (not a function's, not the gateway's `{"message": ...}`
 * answers), with their status and cause: the shape of every HTTP code catalog (the runtime's `HTTP_ERROR_CODES`).
 * The README's "Error codes of fw dev's answers" table lists the same codes with status
 * and fix; a test keeps both in step, both ways.
 */
export const DEV_GATEWAY_ERROR_CODES = {
  HOST_NOT_ALLOWED: { status: 403, meaning: 'A /_dev/ request whose Host is not a loopback name or the --host name (a DNS-rebound page).' },
  CROSS_ORIGIN_REQUEST: { status: 403, meaning: "A /_dev/ request from a browser page of another origin (Origin not the dev server's own, or null)." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'A state-changing /_dev/ request with a body that is not application/json.' },
  BAD_REQUEST: { status: 400, meaning: 'A path that does not decode, a request that is not HTTP/1.1, a malformed body.' },
  NOT_FOUND: { status: 404, meaning: 'No /_dev/ endpoint for the method and path.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'A method the server refuses.' },
  REQUEST_TIMEOUT: { status: 408, meaning: 'The request headers did not arrive in time.' },
  LENGTH_REQUIRED: { status: 411, meaning: 'A body without a length.' },
  URI_TOO_LONG: { status: 414, meaning: "A request line over the server's limit." },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, meaning: "Headers over Node's limit." },
  ENGINE_NOT_READY: { status: 503, meaning: 'A local engine (the database and its migrations) is still starting after the start-up wait.' },
  HANDLER_LOAD_FAILED: { status: 500, meaning: "The route's handler threw while it was imported, or does not compile." },
  GATEWAY_TIMEOUT: { status: 504, meaning: "The function ran past its timeout, or its handler's import past the load limit." },
  INTERNAL_ERROR: { status: 500, meaning: 'The function threw or its worker exited, or the dev server itself failed on the request.' },
  INVALID_JSON: { status: 400, meaning: 'The body of a /_dev/ request (invoke, queue message, token, cache item) is not JSON.' },
  FUNCTION_NOT_FOUND: { status: 404, meaning: "A /_dev/invoke request names no standalone function of the app (or names a route's function)." },
  QUEUE_NOT_FOUND: { status: 404, meaning: 'A /_dev/ queue request names no queue of the app.' },
  CRON_NOT_FOUND: { status: 404, meaning: 'A /_dev/invoke/cron request names no cron of the app.' },
  INVALID_MESSAGE: { status: 400, meaning: 'A queue message without a string body, or with delaySeconds outside 0-900.' },
  QUEUE_WRITE_FAILED: { status: 503, meaning: 'The queue engine could not write the message to disk, so it was not accepted.' },
  CACHE_NOT_FOUND: { status: 404, meaning: 'A /_dev/caches request names no cache of the app.' },
  CACHE_MISS: { status: 404, meaning: 'The local cache has no (unexpired) item under the key.' },
  INVALID_ITEM: { status: 400, meaning: 'A cache item without a string value, or with a ttlSeconds that is not a number.' },
  INVALID_TOKEN_REQUEST: { status: 400, meaning: 'A /_dev/token field has the wrong type (scopes, sub, client, groups, expiresIn).' },
  UNKNOWN_SCOPE: { status: 400, meaning: 'A /_dev/token request asks for a scope config/security.ts does not declare.' },
  UNKNOWN_CLIENT: { status: 400, meaning: 'A /_dev/token request names an app client that does not exist.' },
  SCOPE_NOT_ALLOWED: { status: 400, meaning: 'A /_dev/token request asks for a scope the client may not request.' },
  UNKNOWN_ROLE: { status: 400, meaning: 'A /_dev/token request names a role config/security.ts does not declare.' },
  DATABASE_NOT_FOUND: { status: 404, meaning: "A dev console database request names no database of the app." },
  INVALID_QUERY: { status: 400, meaning: 'A dev console query without a "sql" string.' },
  QUERY_FAILED: { status: 400, meaning: 'A dev console query the database refused (a write in the read-only transaction, several statements, a syntax error, past the timeout).' },
  BUCKET_NOT_FOUND: { status: 404, meaning: 'A dev console storage request names no bucket of the app.' },
  INVALID_STORAGE_REQUEST: { status: 400, meaning: 'A dev console storage request without a known action, or without the key the action needs.' },
  INBOX_TOKEN_REQUIRED: { status: 401, meaning: "A post to the local inbox without this run's FW_DEV_INBOX_TOKEN." },
  INVALID_INBOX_MESSAGE: { status: 400, meaning: 'A local inbox message without a channel (sms, whatsapp, push), a recipient, an idempotency key or its content.' },
} as const;

export type DevGatewayErrorCode = keyof typeof DEV_GATEWAY_ERROR_CODES;
