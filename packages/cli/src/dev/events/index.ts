export * from './sqs-event.js';
export * from './scheduled-event.js';
export * from './ws-event.js';
