export * from './intent-kind.js';
export * from './function-unit.js';
export * from './registry.js';
