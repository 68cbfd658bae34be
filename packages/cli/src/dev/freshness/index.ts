export * from './file-stamps.js';
export * from './folder-listing.js';
export * from './freshness.js';
export * from './watch-gate.js';
