export * from './file-stamps.js';
export * from './folder-listing.js';
export * from './freshness.js';
