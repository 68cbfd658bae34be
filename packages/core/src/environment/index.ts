export * from './variables.js';
export * from './dev-worker-services.js';
export * from './lambda-runtime.js';
export * from './dev-paths.js';
export * from './resolve-environment.js';
export * from './module-load-environment.js';
