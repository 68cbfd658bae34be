import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { DEV_PATHS } from '@framework/core';
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

const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DEV_PATHS.openapi)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  persistAuthorization: true,
});
`;

/**
 * `GET /_dev/openapi.json` (the document, rebuilt when a route or the config changed) and `GET /_dev/docs` (the API
 * reference page, Swagger UI served from node_modules). Under `/_dev`, so only the developer's own machine gets them
 * (the guard runs first).
 */
export function apiDocsPlugin(options: { document(): Promise<OpenApiDocument>; title(): string }): FastifyPluginAsync {
  return async (server) => {
    server.get(DEV_PATHS.openapi, async (_request, reply) => {
      const document = await options.document();
      return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(document));
    });
    server.get(DEV_PATHS.docs, async (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(page(options.title())));
    server.get(`${DEV_PATHS.docs}/init.js`, async (_request, reply) => reply.header('content-type', 'text/javascript; charset=utf-8').send(INIT));
    for (const [file, type] of Object.entries(ASSETS)) {
      server.get(`${DEV_PATHS.docs}/${file}`, async (_request, reply) => reply.header('content-type', type).header('cache-control', 'max-age=3600').send(fs.createReadStream(path.join(SWAGGER_UI_DIR, file))));
    }
  };
}
