export * from './framework-stack.js';
export * from './intent-outputs.js';
export * from './removal-policy.js';
export * from './route-shards.js';
