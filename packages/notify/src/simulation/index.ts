export * from './local-channel-rules.js';
