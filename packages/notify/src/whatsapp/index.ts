export * from './customer-service-window.js';
export * from './whatsapp-message.js';
export * from './whatsapp-events.js';
