export * from './handler.js';
export * from './response.js';
export * from './error-response.js';
export * from './parse-body.js';
export { PLAIN_ROUTE_DEFINE } from './plain-route.js';
export type { StandardSchemaV1 } from './schemas/standard-schema.js';
export type { RouteSchemas, RequestInput, SchemaOutput, SchemaInput, ResponseSchemas, ResponseSchemaMap } from './schemas/request-schemas.js';
export type { RouteTypes, RouteTypesOf, ResultOf, DeclaredResult } from './route-types.js';
