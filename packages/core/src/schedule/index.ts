export * from './schedule-expression.js';
