/** `fw dev`: the local development server, its engines and its functions host. */
export * from './dev-server.js';
export * from './clock/index.js';
export * from './engines/index.js';
export * from './auth/index.js';
export * from './events/index.js';
export { loadApp, findConfigFile } from '../app-loader/index.js';
export { readStateFile, stateFilePath, type DevState } from './state-file.js';
export { buildHttpEvent, gatewayTime, isTextBody, type IncomingRequest, type JwtAuthorizerContext } from './server/gateway-event.js';
export { mapFunctionResult, errorResponse, type GatewayResponse } from './server/gateway-response.js';
export { RouteTable, type RouteMatch } from './server/route-table.js';
export { BUILD_MANIFEST } from './functions/handler-bundler.js';
