import { registerAuthService } from './service/index.js';

export * from './errors.js';
export * from './verify/index.js';
export * from './pre-token-generation/scope-rules.js';
export * from './pre-token-generation/token-scopes.js';
export * from './pre-token-generation/tenant-claim.js';
export * from './service/index.js';

// Importing the package is what makes `service.auth` available in handlers.
registerAuthService();
