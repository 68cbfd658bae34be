import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, ENV, type AppDefinition, type ConfigProblem } from '@framework/core';
import * as esbuild from 'esbuild';
import { DevServerError } from '../errors.js';

const CONFIG_FILES = ['fw.config.ts', 'fw.config.mts', 'fw.config.js', 'fw.config.mjs'];

/** The config file of a project folder, or undefined. */
export function findConfigFile(rootDir: string): string | undefined {
  return CONFIG_FILES.map((f) => path.join(rootDir, f)).find((f) => fs.existsSync(f));
}

let loads = 0;

/** An app model and the files it was compiled from. */
export interface LoadedApp {
  readonly app: AppDefinition;
  /** Absolute paths of the project files esbuild read to compile the config (`fw.config.ts`, `config/*.ts`, ...). */
  readonly inputs: readonly string[];
}

/**
 * Loads the app model of a project: compiles `fw.config.ts` with esbuild (project files bundled, packages external)
 * and imports it with `FW_PROJECT_ROOT` and `FW_STAGE` set, so `defineApp` discovers the files of this project for
 * this stage. Each load imports a fresh copy (files added since are discovered).
 * `defineApp`'s `ConfigError` passes through unchanged (it lists every problem).
 */
export async function loadApp(rootDir: string, stage: string): Promise<AppDefinition> {
  return (await loadAppWithInputs(rootDir, stage)).app;
}

/**
 * `loadApp`, plus the files the config was compiled from. Every load writes its own file under `.fw/dev/config/`
 * (removed once imported): two loads at once never import each other's half-written output.
 */
export async function loadAppWithInputs(rootDir: string, stage: string): Promise<LoadedApp> {
  const configFile = findConfigFile(rootDir);
  if (!configFile) {
    throw new DevServerError('FW_ERR_DEV_NO_CONFIG', `no fw.config.ts in ${rootDir}: run fw dev in the project folder (where fw.config.ts is), or create one with fw init`);
  }
  const outfile = path.join(rootDir, '.fw', 'dev', 'config', `config-${process.pid}-${++loads}.mjs`);
  let inputs: string[];
  try {
    const built = await esbuild.build({
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
      metafile: true,
    });
    inputs = Object.keys(built.metafile.inputs).filter((f) => !f.includes('node_modules')).map((f) => path.resolve(rootDir, f));
  } catch (error) {
    const errors = (error as { errors?: esbuild.Message[] }).errors ?? [];
    const text = errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`).join('\n') || String(error);
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} does not compile:\n${text}`, { cause: error });
  }
  process.env[ENV.projectRoot] = rootDir;
  process.env[ENV.stage] = stage;
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(outfile).href)) as { default?: unknown };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FW_ERR_CONFIG') throw stageFromTheCommandLine(error as ConfigError);
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} threw while loading: ${(error as Error).message ?? String(error)}`, { cause: error });
  } finally {
    fs.rmSync(outfile, { force: true });
  }
  const app = mod.default as Partial<AppDefinition> | undefined;
  if (!app || typeof app !== 'object' || !Array.isArray(app.units) || typeof app.environment !== 'object') {
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} must export default defineApp({ base, security, envs, ... })`);
  }
  if (app.stage !== stage) {
    throw new DevServerError('FW_ERR_DEV_CONFIG_LOAD', `${path.basename(configFile)} built stage "${app.stage}", not "${stage}": do not pass a fixed stage to defineApp (it reads FW_STAGE)`);
  }
  return { app: app as AppDefinition, inputs };
}

/**
 * fw passes the stage of its `--stage` option (or its default) to the config through FW_STAGE, so core reports a
 * stage without environment as "from FW_STAGE": say where the user set it instead.
 */
function stageFromTheCommandLine(error: ConfigError): ConfigError {
  if (!Array.isArray(error.problems) || !error.problems.some((p) => p.code === 'FW_ERR_CONFIG_UNKNOWN_STAGE')) return error;
  const problems: ConfigProblem[] = error.problems.map((p) => (p.code === 'FW_ERR_CONFIG_UNKNOWN_STAGE' ? { ...p, message: p.message.replace('(from FW_STAGE)', '(from --stage, whose default is dev)') } : p));
  return new ConfigError(problems);
}
