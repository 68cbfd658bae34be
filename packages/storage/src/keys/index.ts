export * from './object-key.js';
