export * from './storage-event.js';
