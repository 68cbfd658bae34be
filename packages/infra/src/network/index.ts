export * from './app-network.js';
export * from './service-reachability.js';
