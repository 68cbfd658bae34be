export * from './serving-policy.js';
