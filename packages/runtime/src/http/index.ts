export * from './handler.js';
export * from './response.js';
export * from './error-response.js';
export * from './parse-body.js';
