export * from './app-bucket.js';
