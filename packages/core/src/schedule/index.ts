export * from './schedule-expression.js';
export * from './scheduler-event.js';
