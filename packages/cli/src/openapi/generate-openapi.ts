import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppDefinition } from '@framework/core';
import { openApiDocument, type OpenApiOptions, type OpenApiResult } from './openapi-document.js';
import { readRouteContracts } from './read-route-contracts.js';

/** fw dev's address when it runs with its defaults (`--port 3000`). */
export const DEFAULT_DEV_ORIGIN = 'http://localhost:3000';

/**
 * The OpenAPI document of an app from its compiled route bundles (route key → bundle): what every route declares is
 * read by importing the bundles in a child process, then the document is built. The project's `package.json` version
 * becomes `info.version`.
 */
export async function generateOpenApi(app: AppDefinition, bundles: Readonly<Record<string, string>>, options: Omit<OpenApiOptions, 'version'> = {}): Promise<OpenApiResult> {
  const contracts = await readRouteContracts(app, bundles);
  const version = projectVersion(app.rootDir);
  return openApiDocument(app, contracts, { ...options, ...(version ? { version } : {}) });
}

/**
 * Where a deployed stage's users sign in: the Cognito domain `https://<prefix>.auth.<region>.amazoncognito.com`. When
 * the prefix is the default one, the deployed stack appends a suffix unique to it, unknown before deployment: then
 * undefined (the caller falls back to fw dev's issuer and says so).
 */
export function cognitoDomainUrl(app: AppDefinition): string | undefined {
  if (!app.auth || app.auth.domainPrefixUnique) return undefined;
  return `https://${app.auth.domainPrefix}.auth.${app.region}.amazoncognito.com`;
}

function projectVersion(rootDir: string): string | undefined {
  try {
    const version = (JSON.parse(fs.readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version ? version : undefined;
  } catch {
    return undefined;
  }
}
