export * from './connect-websocket.js';
export * from './websocket-client-error.js';
