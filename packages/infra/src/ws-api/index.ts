export * from './app-ws-api.js';
