export * from './object-serving.js';
