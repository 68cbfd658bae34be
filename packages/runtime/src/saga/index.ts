export * from './saga-store.js';
export * from './in-memory-saga-store.js';
export * from './dynamodb-saga-store.js';
export * from './default-saga-store.js';
export * from './dev-server-saga-store.js';
export { saga, type Saga, type SagaOptions, type SagaResult, type SagaRunOptions, type SagaStep, type SagaStepContext } from './saga.js';
