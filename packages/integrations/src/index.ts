/**
 * `@framework/integrations`: talking to other services. `service.http` / `createHttpClient` is an outbound HTTP
 * client with timeouts, retries, a breaker per host and redacted log lines. OAuth2: client-credentials tokens cached per
 * container, and connections to customers' accounts (code + PKCE) with tokens envelope-encrypted in PostgreSQL.
 */
import { registerHttpService } from './http/index.js';

export * from './errors.js';
export * from './http/index.js';
export * from './crypto/index.js';
export * from './oauth/index.js';

// Importing anything from the package is what makes `service.http` available in handlers.
registerHttpService();
