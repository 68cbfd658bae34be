export * from './envelope-key-provider.js';
export * from './envelope-cipher.js';
export * from './local-key-file-provider.js';
export * from './kms-key-provider.js';
export * from './default-key-provider.js';
