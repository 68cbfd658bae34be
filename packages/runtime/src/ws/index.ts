export * from './ws-handler.js';
export * from './ws-client.js';
export * from './registry/index.js';
export { wsRegistryMain } from './ws-registry-function.js';
