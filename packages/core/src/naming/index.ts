export * from './limits.js';
export * from './fit-name.js';
export * from './unit-names.js';
export * from './local-app-client-id.js';
export * from './notify-names.js';
export * from './tenant.js';
