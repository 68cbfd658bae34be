export * from './child-node-options.js';
export * from './open-debugger.js';
