import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { DEV_PATHS, localAppClientId, type AppDefinition } from '@framework/core';
import { tokenScope } from '../auth/issuer-plugin.js';
import type { FastifyPluginAsync } from 'fastify';
import type { OpenApiDocument } from '../../openapi/index.js';

/** Swagger UI's prebuilt files, from the CLI's own dependency: the page loads nothing from another origin. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/** The page: Swagger UI on `/_dev/openapi.json`. Its start-up script is a file too (no inline script). */
function page(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title.replace(/[<>&"]/g, '')} API reference (fw dev)</title>
<link rel="stylesheet" href="${DEV_PATHS.docs}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DEV_PATHS.docs}/swagger-ui-bundle.js"></script>
<script src="${DEV_PATHS.docs}/init.js"></script>
</body>
</html>
`;
}

/** A machine client the page's Authorize button signs in as (the dev issuer checks no secret). */
export interface DocsClient {
  /** Its local id (`localAppClientId`). */
  readonly clientId: string;
  /** The scopes it may request, as tokens carry them. */
  readonly scopes: readonly string[];
}

function initScript(client: DocsClient | undefined): string {
  const oauth = client ? `window.ui.initOAuth(${JSON.stringify({ clientId: client.clientId, clientSecret: '', scopes: client.scopes })});\n` : '';
  return `window.ui = SwaggerUIBundle(${JSON.stringify({ url: DEV_PATHS.openapi, dom_id: '#swagger-ui', deepLinking: true, displayOperationId: true, persistAuthorization: true })});\n${oauth}`;
}

/** The first app client with the client credentials flow: its token comes from fw dev's issuer without a login. */
export function docsClient(app: AppDefinition): DocsClient | undefined {
  const entry = Object.entries(app.config.security.appClients ?? {}).find(([, c]) => c.flows.includes('client_credentials'));
  if (!entry || !app.auth) return undefined;
  const [name, client] = entry;
  return { clientId: localAppClientId(app.project, app.stage, name), scopes: client.scopes.map((scope) => tokenScope(app, scope)) };
}

/**
 * `GET /_dev/openapi.json` (the document, rebuilt when a route or the config changed) and `GET /_dev/docs` (the API
 * reference page, Swagger UI served from node_modules). Under `/_dev`, so only the developer's own machine gets them
 * (the guard runs first). The page's Authorize button is set up with the app's first client-credentials client, so
 * "Try it out" on a scoped route works after one click (the dev issuer's token endpoint, same origin).
 */
export function apiDocsPlugin(options: { document(): Promise<OpenApiDocument>; currentApp(): AppDefinition }): FastifyPluginAsync {
  return async (server) => {
    server.get(DEV_PATHS.openapi, async (_request, reply) => {
      const document = await options.document();
      return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(document));
    });
    server.get(DEV_PATHS.docs, async (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(page(options.currentApp().project)));
    server.get(`${DEV_PATHS.docs}/init.js`, async (_request, reply) => reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-store').send(initScript(docsClient(options.currentApp()))));
    for (const [file, type] of Object.entries(ASSETS)) {
      server.get(`${DEV_PATHS.docs}/${file}`, async (_request, reply) => reply.header('content-type', type).header('cache-control', 'max-age=3600').send(fs.createReadStream(path.join(SWAGGER_UI_DIR, file))));
    }
  };
}
