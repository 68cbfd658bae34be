/**
 * The codes of the error bodies `fw dev` writes itself (not a function's, not the gateway's `{"message": ...}`
 * answers), with their cause. The README's "Error codes of fw dev's answers" table lists the same codes with status
 * and fix; a test keeps both in step, both ways.
 */
export const DEV_GATEWAY_ERROR_CODES = {
  HOST_NOT_ALLOWED: 'A /_dev/ request whose Host is not a loopback name or the --host name (a DNS-rebound page).',
  CROSS_ORIGIN_REQUEST: "A /_dev/ request from a browser page of another origin (Origin not the dev server's own, or null).",
  UNSUPPORTED_MEDIA_TYPE: 'A state-changing /_dev/ request with a body that is not application/json.',
  BAD_REQUEST: 'A path that does not decode, a request that is not HTTP/1.1, a malformed body.',
  NOT_FOUND: 'No /_dev/ endpoint for the method and path.',
  METHOD_NOT_ALLOWED: 'A method the server refuses.',
  REQUEST_TIMEOUT: 'The request headers did not arrive in time.',
  LENGTH_REQUIRED: 'A body without a length.',
  URI_TOO_LONG: "A request line over the server's limit.",
  REQUEST_HEADER_FIELDS_TOO_LARGE: "Headers over Node's limit.",
  ENGINE_NOT_READY: 'A local engine (the database and its migrations) is still starting after the start-up wait.',
  HANDLER_LOAD_FAILED: "The route's handler threw while it was imported, or does not compile.",
  GATEWAY_TIMEOUT: "The function ran past its timeout, or its handler's import past the load limit.",
  INTERNAL_ERROR: 'The function threw or its worker exited, or the dev server itself failed on the request.',
} as const;

export type DevGatewayErrorCode = keyof typeof DEV_GATEWAY_ERROR_CODES;
