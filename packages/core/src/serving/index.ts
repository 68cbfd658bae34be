export * from './object-serving.js';
export * from './api-key-authorizer-gate.js';
