export * from './handler-info.js';
