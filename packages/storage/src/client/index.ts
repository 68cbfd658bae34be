export * from './bucket-client.js';
export * from './create-bucket-client.js';
export * from './local-bucket-client.js';
export * from './s3-bucket-client.js';
export * from './storage-service.js';
export { LOCAL_CLIENT_HEADER } from './local-protocol.js';
