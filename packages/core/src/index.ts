/**
 * @framework/core: the app model. Config types and codecs, presets, layering, `defineApp`, discovery and naming.
 * Pure: no AWS SDK, no CDK, no esbuild.
 */
export * from './errors.js';
export * from './config/index.js';
export * from './presets/index.js';
export * from './naming/index.js';
export * from './environment/index.js';
export * from './handlers/index.js';
export * from './schedule/index.js';
export * from './serving/index.js';
export * from './discovery/index.js';
export * from './intents/index.js';
export * from './app/index.js';
