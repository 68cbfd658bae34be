export * from './local-issuer.js';
export * from './issuer-plugin.js';
