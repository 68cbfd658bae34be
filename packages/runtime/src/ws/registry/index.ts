export * from './connection-registry.js';
export * from './in-memory-connection-registry.js';
export * from './dynamodb-connection-registry.js';
export * from './dev-server-connection-registry.js';
export * from './default-connection-registry.js';
export { fanoutBatches, type FanoutBatch } from './fanout.js';
