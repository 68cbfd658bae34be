/** fw dev's OpenAPI document and API reference page (`/_dev/openapi.json`, `/_dev/docs`). */
export { apiDocsPlugin, docsClient, type DocsClient } from './api-docs-plugin.js';
export { DevOpenApi, type DevOpenApiSources } from './dev-openapi.js';
