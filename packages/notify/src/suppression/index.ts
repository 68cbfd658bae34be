export * from './suppression-list.js';
export * from './ses-events.js';
export * from './sms-keywords.js';
