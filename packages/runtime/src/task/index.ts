export * from './task-handler.js';
export * from './process-records.js';
export * from './retry.js';
export * from './transient.js';
