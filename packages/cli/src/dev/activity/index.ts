export * from './activity-log.js';
export * from './turn-batched-writer.js';
