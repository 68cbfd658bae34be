import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppDefinition } from '@framework/core';
import * as esbuild from 'esbuild';
import { DevServerError } from '../../errors.js';

const CONFIG_FILES = ['fw.config.ts', 'fw.config.mts', 'fw.config.js', 'fw.config.mjs'];

/** The config file of a project folder, or undefined. */
export function findConfigFile(rootDir: string): string | undefined {
  return CONFIG_FILES.map((f) => path.join(rootDir, f)).find((f) => fs.existsSync(f));
}

let loads = 0;

/**
 * Loads the app model of a project: compiles `fw.config.ts` with esbuild (project files bundled, packages external)
 * to `.fw/dev/config.mjs` and imports it with `FW_PROJECT_ROOT` and `FW_STAGE` set, so `defineApp` discovers the
 * files of this project for this stage. Each load imports a fresh copy (files added since are discovered).
 * `defineApp`'s `ConfigError` passes through unchanged (it lists every problem).
 */
export async function loadApp(rootDir: string, stage: string): Promise<AppDefinition> {
  const configFile = findConfigFile(rootDir);
  if (!configFile) {
    throw new DevServerError('FW_ERR_DEV_NO_CONFIG', `no fw.config.ts in ${rootDir}: run fw dev in the project folder (where fw.config.ts is), or create one with fw init`);
  }
  const outfile = path.join(rootDir, '.fw', 'dev', 'config.mjs');
  try {
    await esbuild.build({
      absWorkingDir: rootDir,
      entryPoints: [configFile],
      outfile,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      sourcemap: 'inline',
    });
  } catch (error) {
    const errors = (error as { errors?: esbuild.Message[] }).errors ?? [];
    const text = errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`).join('\n') || String(error);
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} does not compile:\n${text}`, { cause: error });
  }
  process.env.FW_PROJECT_ROOT = rootDir;
  process.env.FW_STAGE = stage;
  let mod: { default?: unknown };
  try {
    mod = (await import(`${pathToFileURL(outfile).href}?load=${++loads}`)) as { default?: unknown };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FW_ERR_CONFIG') throw error;
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} threw while loading: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
  const app = mod.default as Partial<AppDefinition> | undefined;
  if (!app || typeof app !== 'object' || !Array.isArray(app.units) || typeof app.environment !== 'object') {
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} must export default defineApp({ base, security, envs, ... })`);
  }
  if (app.stage !== stage) {
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} built stage "${app.stage}", not "${stage}": do not pass a fixed stage to defineApp (it reads FW_STAGE)`);
  }
  return app as AppDefinition;
}
