/**
 * `@framework/auth/dev-server`: what `fw dev`'s local identity provider uses (the errors, the scope rules, the user
 * input checks, the user admin's wire format), without the token verifier (jose, aws-jwt-verify) and without
 * registering `service.auth`: the dev server loads this before its first request.
 */
export * from '../errors.js';
export * from '../pre-token-generation/scope-rules.js';
export * from '../pre-token-generation/token-scopes.js';
export * from '../pre-token-generation/tenant-claim.js';
export * from '../service/input-checks.js';
export { authUserToJson, DEV_AUTH_TOKEN_HEADER } from '../service/dev-user-admin-client.js';
