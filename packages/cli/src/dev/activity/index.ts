export * from './activity-log.js';
export * from './batched-line-writer.js';
