export * from './http-client.js';
export * from './http-client-options.js';
export { backoffDelayMs, serverRequestedDelayMs } from './retry-delay.js';
export { DEFAULT_REDACTED_HEADERS, DEFAULT_REDACTED_QUERY_PARAMS } from './redact.js';
export { registerHttpService } from './service-http.js';
