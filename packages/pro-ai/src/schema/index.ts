export * from './ai-state-migration.js';
