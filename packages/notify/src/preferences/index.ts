export * from './preference-store.js';
export * from './decide-channels.js';
