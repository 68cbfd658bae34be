export * from './ws-handler.js';
export * from './ws-client.js';
