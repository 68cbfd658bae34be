export * from './notify-channels.js';
