import * as path from 'node:path';
import type { AppDefinition } from '@framework/core';
import { CLIENT_FILE, isGeneratedClient, writeClient } from '../client-gen/index.js';
import type { DevLogger } from './engines/engine.js';

/**
 * Keeps the generated client in step with the route files: rewritten when a route is added or removed (a route's
 * types follow its file through `import type`, so an edit needs no rewrite). Only a client `fw gen client` wrote is
 * touched: a project that never generated one gets no new file in its sources.
 */
export function refreshClient(rootDir: string, app: AppDefinition, log: DevLogger): void {
  if (!isGeneratedClient(path.join(rootDir, CLIENT_FILE))) return;
  try {
    if (writeClient(rootDir, app.routes)) log.info(`updated ${CLIENT_FILE} (${app.routes.length} routes)`);
  } catch (error) {
    log.warn(`${CLIENT_FILE} not updated: ${(error as Error).message}`);
  }
}
