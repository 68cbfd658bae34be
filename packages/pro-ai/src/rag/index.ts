export * from './extract-text.js';
export * from './chunk-text.js';
export * from './ingest.js';
export * from './answer.js';
