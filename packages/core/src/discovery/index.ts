export * from './routes.js';
export * from './units.js';
export * from './source-files.js';
