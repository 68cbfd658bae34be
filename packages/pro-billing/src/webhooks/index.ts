export * from './apply-billing-event.js';
export * from './receipt-notification.js';
export * from './verified-billing-event.js';
