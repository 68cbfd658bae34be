export * from './app-queue.js';
