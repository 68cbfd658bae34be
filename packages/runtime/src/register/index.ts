export type { AppFunctions, AppScope, BucketId, DatabaseId, FunctionId, FunctionPayload, FunctionResult, QueueId, Register } from './register.js';
