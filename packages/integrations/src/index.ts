/**
 * `@framework/integrations`: talking to other services. `service.http` / `createHttpClient` is an outbound HTTP
 * client with timeouts, retries, a breaker per host and redacted log lines. OAuth2: client-credentials tokens cached per
 * container, and connections to customers' accounts (code + PKCE) with tokens envelope-encrypted in PostgreSQL. API
 * keys for the app's customers (`createApiKeys`) and signed webhooks out and in.
 */
import { registerHttpService } from './http/index.js';

export * from './errors.js';
export * from './http/index.js';
export * from './crypto/index.js';
export * from './oauth/index.js';
export * from './api-keys/index.js';
export * from './webhooks/index.js';

// Importing anything from the package is what makes `service.http` available in handlers.
registerHttpService();
