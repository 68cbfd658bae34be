export * from './handler-info.js';
export * from './route-schemas.js';
