/** The typed HTTP client generated from the route files (`fw gen client`, kept current by `fw dev`). */
export { clientTree, propertyName, type ClientNode, type ClientRoute, type ClientMethod, type ClientParam } from './client-tree.js';
export { renderClient, GENERATED_HEADER } from './render-client.js';
export { CLIENT_FILE, isGeneratedClient, writeClient } from './write-client.js';
