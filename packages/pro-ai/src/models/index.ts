export * from './model-config.js';
export * from './create-model.js';
export * from './mock-model.js';
export * from './usage-sink.js';
export * from './token-budget.js';
export { isThrottlingError, type RetryOptions } from './throttle-retry.js';
export { toModelSchema, type JsonSchemaObject } from './model-schema.js';
export { runForAiUser, currentAiUser } from './ai-caller.js';
export * from './stream-to-websocket.js';
