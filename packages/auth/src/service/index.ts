export * from './auth-service.js';
export * from './cognito-user-admin.js';
export * from './create-auth-service.js';
export * from './dev-user-admin-client.js';
export * from './input-checks.js';
export * from './machine-tokens.js';
export { registerAuthService } from './service-auth.js';
