export * from './presets.js';
export * from './settings.js';
export * from './stage-settings.js';
