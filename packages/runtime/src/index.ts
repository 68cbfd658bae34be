/**
 * @framework/runtime: what route, queue, cron and function files are written against. Everything here is
 * tree-shakable and free of io-ts; AWS SDK clients are loaded on first use only.
 */
export * from './errors.js';
export { withHandlerInfo, type HandlerInfo } from './handler-info.js';
export * from './http/index.js';
export * from './context/index.js';
export * from './logger/index.js';
export * from './metrics/index.js';
export * from './middleware/index.js';
export * from './service/index.js';
export * from './register/index.js';
export * from './task/index.js';
export * from './invoke/index.js';
export * from './queues/index.js';
export * from './ws/index.js';
export * from './idempotency/index.js';
export * from './saga/index.js';
export type { SQSEvent, SQSRecord, ScheduledEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
