export * from './app-http-api.js';
