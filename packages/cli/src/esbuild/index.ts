import * as fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * esbuild, imported on first use: `fw dev`'s start compiles nothing when the previous run's compiles of the config
 * and the handlers are still good, and importing esbuild's API costs it 25-40 ms of CPU for nothing.
 */
export type Esbuild = typeof import('esbuild');

let loading: Promise<Esbuild> | undefined;

/** esbuild's API (imported once). */
export function esbuild(): Promise<Esbuild> {
  loading ??= import('esbuild');
  return loading;
}

let version: string | undefined;

/**
 * The version of the esbuild that `esbuild()` imports, read from its package.json without importing it (a compile
 * kept from an earlier run is reused only if this esbuild made it). It equals esbuild's own `version` export.
 */
export function esbuildVersion(): string {
  const require = createRequire(import.meta.url);
  version ??= (JSON.parse(fs.readFileSync(require.resolve('esbuild/package.json'), 'utf8')) as { version: string }).version;
  return version;
}
