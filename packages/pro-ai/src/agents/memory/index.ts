export * from './conversation-memory.js';
export * from './postgres-memory.js';
