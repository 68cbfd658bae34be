export * from './app-ws-api.js';
export * from './ws-connect-authorizer.js';
export * from './ws-connection-registry.js';
