/**
 * `@framework/storage/local`: the embedded storage engine that `fw dev` mounts under `/_dev/storage/`. Server-side
 * only (file system, busboy); never imported by a function.
 */
export * from './local-storage-engine.js';
export * from './notifier.js';
export * from './object-store.js';
export * from './s3-error.js';
export * from './signer.js';
