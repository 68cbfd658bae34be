import * as fs from 'node:fs';
import { DEV_PATHS, type AppDefinition } from '@framework/core';
import type { OpenApiDocument, RouteContractResult } from '../../openapi/index.js';
import type { DevLogger } from '../engines/engine.js';
import type { Freshness } from '../freshness/index.js';
import type { HandlerBundler } from '../functions/handler-bundler.js';

/** What the dev server's OpenAPI document is made from. */
export interface DevOpenApiSources {
  currentApp(): AppDefinition;
  /** The dev server's freshness check (undefined until the server exists). */
  freshness(): Freshness | undefined;
  /** fw dev's compiler of handler files: the document reads the very bundles the routes run. */
  readonly bundler: HandlerBundler;
  /** fw dev's URL: the dev issuer's OAuth endpoints are there. */
  readonly baseUrl: string;
  readonly log: DevLogger;
}

/**
 * fw dev's `/_dev/openapi.json`: built like `fw openapi`'s, from the bundles fw dev compiled (brought up to date
 * first, as for a request), with the dev issuer as the OAuth server. Kept until the app model or a route's bundle
 * changes, so reloading the docs page costs nothing; a route that does not compile is documented without its schemas,
 * saying why (the others are still served).
 */
export class DevOpenApi {
  private cached?: { readonly key: string; readonly app: AppDefinition; readonly document: Promise<OpenApiDocument> };

  constructor(private readonly sources: DevOpenApiSources) {}

  async document(): Promise<OpenApiDocument> {
    await this.sources.freshness()?.refresh();
    const app = this.sources.currentApp();
    const { bundler } = this.sources;
    const unbuilt = app.routes.filter((route) => !bundler.result(route.file)).map((route) => route.file);
    if (unbuilt.length) await bundler.build(unbuilt, false);
    const bundles: Record<string, string> = {};
    const failed: Record<string, RouteContractResult> = {};
    const stamps: string[] = [];
    for (const route of app.routes) {
      const result = bundler.result(route.file);
      if (result?.ok) {
        bundles[route.routeKey] = result.bundle;
        stamps.push(`${route.routeKey}=${stampOf(result.bundle)}`);
      } else {
        failed[route.routeKey] = { error: `it does not compile: ${result?.message ?? 'not built'}` };
        stamps.push(`${route.routeKey}!`);
      }
    }
    const key = stamps.join('\n');
    if (this.cached?.app === app && this.cached.key === key) return this.cached.document;
    // The OpenAPI writer is imported at the first request for the document, not at fw dev's start.
    const document = import('../../openapi/index.js').then(async ({ openApiDocument, readRouteContracts }) => {
      const contracts = await readRouteContracts(app, bundles);
      const { document: built, problems } = openApiDocument(app, { ...contracts, ...failed }, { authBaseUrl: this.sources.baseUrl });
      for (const problem of problems) this.sources.log.warn(`${problem} (in ${DEV_PATHS.openapi})`);
      return built;
    });
    this.cached = { key, app, document };
    document.catch(() => {
      if (this.cached?.document === document) this.cached = undefined;
    });
    return document;
  }
}

/** A bundle's identity on disk: esbuild rewrites it on every rebuild that changes it. */
function stampOf(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'missing';
  }
}
