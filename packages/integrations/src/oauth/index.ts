export * from './provider-presets.js';
export * from './client-credentials.js';
export * from './connections-migration.js';
export * from './oauth-connections.js';
export type { OAuthClientCredentials } from './authorization-server.js';
