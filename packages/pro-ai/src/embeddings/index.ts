export * from './embedder.js';
export * from './local-embedder.js';
export * from './model-embedder.js';
export * from './cached-embedder.js';
export { vectorLiteral, parseVector } from './vector-text.js';
