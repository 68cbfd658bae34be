export * from './channels-schema.js';
