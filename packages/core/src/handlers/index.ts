export * from './handler-info.js';
export * from './handler-kind.js';
export * from './route-schemas.js';
