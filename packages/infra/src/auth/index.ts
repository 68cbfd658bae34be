export * from './app-auth.js';
