// @framework/notify: email, SMS, WhatsApp and push through an outbox written in the business transaction.
export * from './errors.js';
export * from './providers/index.js';
