export * from './digest-window.js';
export * from './digest-store.js';
export * from './digest-task.js';
