export * from './bundle-app.js';
export * from './bundle-usage.js';
export * from './handler-info.js';
export * from './bundle-references.js';
export * from './sdk-preload.js';
export * from './service-defines.js';
export * from './route-defines.js';
export * from './asset-hash.js';
