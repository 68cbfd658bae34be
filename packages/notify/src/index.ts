// @framework/notify: email, SMS, WhatsApp and push through an outbox written in the business transaction.
export * from './errors.js';
export * from './providers/index.js';
export * from './schema/index.js';
export * from './preferences/index.js';
export * from './unsubscribe/index.js';
export * from './suppression/index.js';
export * from './whatsapp/index.js';
export * from './digests/index.js';
export * from './simulation/index.js';
export * from './outbox/index.js';
export * from './templates/index.js';
export * from './dispatcher/index.js';
