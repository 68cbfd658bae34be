/** The OpenAPI 3.1 document of an app, from its route files and their schemas (`fw openapi`, fw dev's `/_dev/openapi.json`). */
export { bundleRoutes } from './bundle-routes.js';
export { cognitoDomainUrl, DEFAULT_DEV_ORIGIN, generateOpenApi } from './generate-openapi.js';
export { toJsonSchema, type ConvertedSchema, type JsonSchema, type VendorConverter } from './json-schema.js';
export { openApiDocument, operationIdOf, type OpenApiDocument, type OpenApiOptions, type OpenApiResult } from './openapi-document.js';
export { readRouteContracts } from './read-route-contracts.js';
export type { RouteContract, RouteContractResult, UnreadableRoute } from './route-contract.js';
