export * from './variables.js';
