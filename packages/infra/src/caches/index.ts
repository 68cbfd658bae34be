export * from './app-cache.js';
