export * from './app-database.js';
