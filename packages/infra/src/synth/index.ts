export * from './synthesize-app.js';
