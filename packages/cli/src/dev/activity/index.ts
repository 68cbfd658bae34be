export * from './activity-log.js';
