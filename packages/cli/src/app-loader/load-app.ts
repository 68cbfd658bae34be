import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, ENV, type AppDefinition, type ConfigProblem } from '@framework/core';
import type * as esbuildTypes from 'esbuild';
import { DevServerError } from '../errors.js';
import { FileStamps } from '../dev/freshness/file-stamps.js';
import { esbuild, esbuildVersion } from '../esbuild/index.js';

const CONFIG_FILES = ['fw.config.ts', 'fw.config.mts', 'fw.config.js', 'fw.config.mjs'];

/** The config file of a project folder, or undefined. */
export function findConfigFile(rootDir: string): string | undefined {
  return CONFIG_FILES.map((f) => path.join(rootDir, f)).find((f) => fs.existsSync(f));
}

let loads = 0;

/** esbuild's options for the config, but its entry and output (part of what makes a kept compile reusable). */
const CONFIG_BUILD_OPTIONS = {
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'silent',
  sourcemap: 'inline',
  metafile: true,
} as const satisfies esbuildTypes.BuildOptions;

/** The last compile of the config, kept under `.fw/dev/config/` with what it was compiled from. */
const KEPT_CONFIG = 'last-config.mjs';
const KEPT_CONFIG_INPUTS = 'last-config.json';

/** What the kept compile was built from: its inputs' stamps and the compiler (a compile by another is not reused). */
interface KeptConfig {
  readonly key: string;
  readonly inputs: Record<string, string>;
  /** The kept compile's hash: a copy written by another load at the same time is not taken for this one. */
  readonly sha256: string;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

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
  const configDir = path.join(rootDir, '.fw', 'dev', 'config');
  const outfile = path.join(configDir, `config-${process.pid}-${++loads}.mjs`);
  let inputs: string[];
  try {
    inputs = reuseKeptConfig(rootDir, configDir, outfile) ?? (await compileConfig(rootDir, configFile, configDir, outfile));
  } catch (error) {
    const errors = (error as { errors?: esbuildTypes.Message[] }).errors ?? [];
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

function keptConfigKey(): string {
  return JSON.stringify({ esbuild: esbuildVersion(), options: CONFIG_BUILD_OPTIONS });
}

/**
 * Copies the kept compile of the config to `outfile` when none of the files it was compiled from changed since:
 * `fw dev` then starts without esbuild when only handlers (or nothing) changed. Returns its inputs, or undefined.
 */
function reuseKeptConfig(rootDir: string, configDir: string, outfile: string): string[] | undefined {
  try {
    const kept = JSON.parse(fs.readFileSync(path.join(configDir, KEPT_CONFIG_INPUTS), 'utf8')) as KeptConfig;
    if (kept.key !== keptConfigKey() || FileStamps.restore(kept.inputs, rootDir).changed() !== undefined) return undefined;
    const compiled = fs.readFileSync(path.join(configDir, KEPT_CONFIG));
    if (sha256(compiled) !== kept.sha256) return undefined;
    fs.writeFileSync(outfile, compiled);
    return Object.keys(kept.inputs).filter((file) => !PROJECT_SETTINGS.includes(file)).map((file) => path.resolve(rootDir, file));
  } catch {
    return undefined;
  }
}

/** The project files besides the config's imports that change how it compiles (esbuild reads `tsconfig.json`). */
const PROJECT_SETTINGS = ['tsconfig.json', 'package.json'];

/**
 * Compiles the config to `outfile` with esbuild and keeps a copy with what it was compiled from (unless one of those
 * files was saved during the compile or within the last clock tick: the next load then compiles again).
 */
async function compileConfig(rootDir: string, configFile: string, configDir: string, outfile: string): Promise<string[]> {
  const started = Date.now();
  const built = await (await esbuild()).build({ ...CONFIG_BUILD_OPTIONS, absWorkingDir: rootDir, entryPoints: [configFile], outfile });
  const inputs = Object.keys(built.metafile.inputs).filter((f) => !f.includes('node_modules')).map((f) => path.resolve(rootDir, f));
  const stamps = new FileStamps([...inputs, ...PROJECT_SETTINGS.map((name) => path.join(rootDir, name))]);
  const saved = stamps.saved(rootDir);
  // Stamped after the compile read them: only files not written since it started describe what it compiled.
  const unchangedSince = saved && Object.keys(saved).every((file) => (fs.statSync(path.resolve(rootDir, file), { throwIfNoEntry: false })?.mtimeMs ?? 0) < started);
  try {
    if (saved && unchangedSince) {
      const compiled = fs.readFileSync(outfile);
      // Written aside then renamed: a load reading them meanwhile sees a whole file (and checks the hash).
      fs.writeFileSync(`${outfile}.kept`, compiled);
      fs.renameSync(`${outfile}.kept`, path.join(configDir, KEPT_CONFIG));
      fs.writeFileSync(`${outfile}.json`, JSON.stringify({ key: keptConfigKey(), inputs: saved, sha256: sha256(compiled) } satisfies KeptConfig));
      fs.renameSync(`${outfile}.json`, path.join(configDir, KEPT_CONFIG_INPUTS));
    } else {
      fs.rmSync(path.join(configDir, KEPT_CONFIG_INPUTS), { force: true });
    }
  } catch {
    // Only an accelerator: the next load compiles.
  }
  return inputs;
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
