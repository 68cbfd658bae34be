export * from './payload-limits.js';
export * from './memory-limits.js';
