export * from './app-network.js';
