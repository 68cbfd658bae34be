export * from './sqs-event.js';
export * from './scheduled-event.js';
