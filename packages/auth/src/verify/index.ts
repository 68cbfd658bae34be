export * from './access-token.js';
export * from './access-token-verifier.js';
export * from './verify-jwt.js';
