import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppDefinition } from '@framework/core';
import type * as esbuildTypes from 'esbuild';
import { esbuild } from '../esbuild/index.js';
import { OpenApiError } from '../errors.js';

/**
 * Compiles every route file for `fw openapi` as `fw dev` compiles them (project code bundled, packages external), into
 * `.fw/openapi/build/` (under the project, so the bundles load the project's own packages). Returns route key → bundle.
 * A route that does not compile fails the command with esbuild's messages: the document would miss it otherwise.
 */
export async function bundleRoutes(app: AppDefinition): Promise<Record<string, string>> {
  if (app.routes.length === 0) return {};
  const outdir = path.join(app.rootDir, '.fw', 'openapi', 'build');
  fs.rmSync(outdir, { recursive: true, force: true });
  try {
    await (await esbuild()).build({
      absWorkingDir: app.rootDir,
      entryPoints: app.routes.map((route) => path.join(app.rootDir, route.file)),
      outdir,
      outbase: app.rootDir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
    });
  } catch (error) {
    const errors = (error as { errors?: esbuildTypes.Message[] }).errors ?? [];
    const text = errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`).join('\n') || String(error);
    throw new OpenApiError('FW_ERR_OPENAPI_ROUTE_LOAD', `the route files do not compile, so their schemas cannot be read:\n${text}`, { cause: error });
  }
  return Object.fromEntries(app.routes.map((route) => [route.routeKey, path.join(outdir, route.file.replace(/\.[cm]?[jt]sx?$/, '.mjs'))]));
}
