export * from './app-function.js';
