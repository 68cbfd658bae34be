export * from './background-type-check.js';
