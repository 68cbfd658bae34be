export * from './bucket-settings.js';
export * from './content-type.js';
export * from './upload-policy.js';
