export * from './queue-client.js';
