export * from './app-definition.js';
export * from './define-app.js';
export { MAX_ROUTE_TIMEOUT } from './build-stage.js';
