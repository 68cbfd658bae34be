import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleLoadEnvironment, type AppDefinition, type HandlerInfo } from '@framework/core';
import { InfraError } from '../errors.js';
import type { AppBundle } from './bundle-app.js';

/** What `handler(...)` / `taskHandler(...)` attach to `main`: core owns the shape and its reader, infra only reads it. */
export type { HandlerInfo } from '@framework/core';

/** Core's names module, where `handlerInfoOf` lives: the child process reads every handler with it, as the dev worker does. */
const CORE_NAMES_URL = pathToFileURL(createRequire(import.meta.url).resolve('@framework/core/names')).href;

/**
 * The script of the child process: imports each bundle and reports what `handlerInfoOf(main)` reads to a result file
 * (not stdout, which module code may print to), then exits even if a module left a timer or socket open.
 */
const READER = `
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
const { files, resultFile, coreNames } = JSON.parse(readFileSync(0, 'utf8'));
const { handlerInfoOf } = await import(coreNames);
const out = {};
for (const [name, file] of Object.entries(files)) {
  try {
    const mod = await import(pathToFileURL(file).href);
    const main = mod.main;
    if (typeof main !== 'function') { out[name] = { missingMain: true, exports: Object.keys(mod) }; continue; }
    out[name] = { info: handlerInfoOf(main) ?? null };
  } catch (error) {
    out[name] = { error: String((error && error.message) || error) };
  }
}
writeFileSync(resultFile, JSON.stringify(out));
process.exit(0);
`;

type ReaderResult = Record<string, { info?: HandlerInfo | null; missingMain?: boolean; exports?: string[]; error?: string }>;

/** Options of `readHandlerInfo`. */
export interface HandlerInfoOptions {
  /**
   * Reuse what a previous read found for a bundle with the same bytes, environment and Node.js version
   * (`.fw/bundle-cache/handler-info.json` in the project). Only what loaded cleanly is kept: a module that threw is
   * loaded again every time.
   * @default true
   */
  readonly cache?: boolean;
}

let coreNamesDigest: string | undefined;
/** The bytes of core's reader (`handlerInfoOf`): a new version of it may read the same bundle differently. */
function coreNamesHash(): string {
  return (coreNamesDigest ??= createHash('sha256').update(fs.readFileSync(fileURLToPath(CORE_NAMES_URL))).digest('hex'));
}

/** Kept read results, by function name (the file stays small: one entry per function of the project's stages). */
type KeptInfos = Record<string, { key: string; info: HandlerInfo | null }>;

/**
 * What `readHandlerInfo` found, kept by a key of the bundle's bytes, the neutral environment it loads in, the
 * Node.js version and core's reader. `handler({ scopes })` is a declaration evaluated when the module loads, so the
 * same bytes in the same environment declare the same thing; in a profile of the example's `fw synth` with its
 * bundles reused (`cachedBuildSync`), loading 41 bundles of about a megabyte each took longer than loading the CDK.
 */
class HandlerInfoCache {
  private readonly kept: KeptInfos;
  private readonly environment: string;
  /** The keys of the bundles not found, by function name: what `remember` keeps them under. */
  private readonly pending = new Map<string, string | undefined>();
  private changed = false;

  constructor(private readonly file: string, environment: Record<string, string>) {
    // HOME is the temporary folder of each read and PATH the caller's: neither is something a module declares from.
    const { HOME: _home, PATH: _path, ...declared } = environment;
    this.environment = JSON.stringify(Object.entries(declared).sort(([a], [b]) => a.localeCompare(b)));
    try {
      this.kept = JSON.parse(fs.readFileSync(file, 'utf8')) as KeptInfos;
    } catch {
      this.kept = {};
    }
  }

  private keyOf(entryFile: string): string | undefined {
    try {
      return createHash('sha256').update(`${process.version}\0${coreNamesHash()}\0${this.environment}\0`).update(fs.readFileSync(entryFile)).digest('hex');
    } catch {
      return undefined;
    }
  }

  lookup(name: string, entryFile: string): { info: HandlerInfo | null } | undefined {
    const kept = this.kept[name];
    const key = this.keyOf(entryFile);
    if (!kept || key === undefined || kept.key !== key) {
      this.pending.set(name, key);
      return undefined;
    }
    return { info: kept.info };
  }

  remember(name: string, info: HandlerInfo | null): void {
    const key = this.pending.get(name);
    if (key === undefined) return;
    this.kept[name] = { key, info };
    this.changed = true;
  }

  save(): void {
    if (!this.changed) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, JSON.stringify(this.kept));
      fs.renameSync(temporary, this.file);
    } catch {
      // Not kept: the next synth loads the bundles again.
    }
  }
}

/** A failed reader process as the error the user acts on. */
function readerFailure(how: string, stderr: string): InfraError {
  return new InfraError('FW_ERR_INFRA_HANDLER_LOAD', `Reading the handlers' declared scopes failed (the process ${how}):\n${stderr.trim().slice(0, 2000)}\nA handler module must load without cloud access: move cloud calls from the module top level into the handler.`);
}

/** What `readHandlerInfo` found kept, and the bundles it must load (by function name). */
function knownAndPending(app: AppDefinition, bundle: AppBundle, options: HandlerInfoOptions) {
  const infos = new Map<string, HandlerInfo | undefined>();
  const cache = (options.cache ?? true) ? new HandlerInfoCache(path.join(app.rootDir, '.fw', 'bundle-cache', 'handler-info.json'), moduleLoadEnvironment(app, '')) : undefined;
  const files: Record<string, string> = {};
  for (const [name, fn] of bundle.functions) {
    const known = cache?.lookup(name, fn.entryFile);
    if (known) infos.set(name, known.info ?? undefined);
    else files[name] = fn.entryFile;
  }
  return { infos, cache, files };
}

/** Checks what the reader found for every function it loaded, keeps it, and returns every function's info in order. */
function collect(bundle: AppBundle, files: Record<string, string>, result: ReaderResult, infos: Map<string, HandlerInfo | undefined>, cache: HandlerInfoCache | undefined): Map<string, HandlerInfo | undefined> {
  for (const [name, fn] of bundle.functions) {
    if (!(name in files)) continue;
    const entry = result[name];
    if (!entry || entry.error !== undefined) {
      throw new InfraError('FW_ERR_INFRA_HANDLER_LOAD', `${fn.unit.file} threw while being loaded (to read the scopes it declares): ${entry?.error ?? 'no result'}\nA handler module must load without cloud access and without variables other than FW_PROJECT, FW_STAGE, FW_REGION and LOG_LEVEL: move that work into the handler.`);
    }
    if (entry.missingMain) {
      throw new InfraError('FW_ERR_INFRA_HANDLER_EXPORT', `${fn.unit.file} does not export a function named "main" (exports: ${entry.exports?.join(', ') || 'none'}). Export the handler as main: export const main = handler(...)`);
    }
    infos.set(name, entry.info ?? undefined);
    cache?.remember(name, entry.info ?? null);
  }
  cache?.save();
  // In the functions' order, whichever were kept and whichever were read.
  return new Map([...bundle.functions.keys()].map((name) => [name, infos.get(name)]));
}

/**
 * Reads every function's declared `handlerInfo` by importing its bundle in ONE child process with a neutral
 * environment: only the app's fixed variables (project, stage, region, log level), no credentials, no instance
 * metadata lookups. Importing the real bundle is the only sound way to see what `handler({ scopes })` declared:
 * scopes may come from constants or shared modules, which a text scan would miss. A module whose top level needs
 * the cloud fails here with its message, at synth time instead of at its first request.
 *
 * A `main` without `handlerInfo` (a plain Lambda handler) declares no scopes: a public route, as with `handler()` and no scopes (nothing was declared to check).
 */
export function readHandlerInfo(app: AppDefinition, bundle: AppBundle, options: HandlerInfoOptions = {}): Map<string, HandlerInfo | undefined> {
  if (bundle.functions.size === 0) return new Map();
  const { infos, cache, files } = knownAndPending(app, bundle, options);
  if (Object.keys(files).length === 0) return infos;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-handler-info-'));
  const resultFile = path.join(tmp, 'result.json');
  try {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', READER], {
      cwd: app.rootDir,
      env: moduleLoadEnvironment(app, tmp),
      input: JSON.stringify({ files, resultFile, coreNames: CORE_NAMES_URL }),
      encoding: 'utf8',
      timeout: READER_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    if (!fs.existsSync(resultFile)) throw readerFailure(child.error ? `could not run: ${child.error.message}` : `exited with ${child.status ?? child.signal}`, child.stderr || '');
    return collect(bundle, files, JSON.parse(fs.readFileSync(resultFile, 'utf8')) as ReaderResult, infos, cache);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** How long a reader process may take before it is stopped (a module that never finishes loading). */
const READER_TIMEOUT_MS = 120_000;

/** Splits the bundles to read into `count` lists of about the same bytes (largest first, each to the lightest list). */
function balancedChunks(files: Record<string, string>, count: number): Array<Record<string, string>> {
  const sized = Object.entries(files).map(([name, file]) => {
    let size = 0;
    try {
      size = fs.statSync(file).size;
    } catch {
      // Missing: the reader reports it.
    }
    return { name, file, size };
  }).sort((a, b) => b.size - a.size || a.name.localeCompare(b.name));
  const chunks = Array.from({ length: Math.min(count, sized.length) }, () => ({ bytes: 0, files: {} as Record<string, string> }));
  for (const one of sized) {
    const lightest = chunks.reduce((min, chunk) => (chunk.bytes < min.bytes ? chunk : min));
    lightest.files[one.name] = one.file;
    lightest.bytes += one.size;
  }
  return chunks.map((chunk) => chunk.files);
}

/** One reader process over `files`, asynchronously: resolves to what it found, or rejects with the user's error. */
function readChunk(app: AppDefinition, files: Record<string, string>, tmp: string, index: number): Promise<ReaderResult> {
  const resultFile = path.join(tmp, `result-${index}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', READER], { cwd: app.rootDir, env: moduleLoadEnvironment(app, tmp), stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 16_000) stderr += text;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), READER_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(readerFailure(`could not run: ${error.message}`, stderr));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(fs.readFileSync(resultFile, 'utf8')) as ReaderResult);
      } catch {
        reject(readerFailure(`exited with ${code ?? signal}`, stderr));
      }
    });
    child.stdin.on('error', () => {
      // The process ended before reading its input: 'close' reports it.
    });
    child.stdin.end(JSON.stringify({ files, resultFile, coreNames: CORE_NAMES_URL }));
  });
}

/**
 * `readHandlerInfo` with the bundles shared among one reader process per core, run at once (each loads its share of
 * the bundles: in the example's cold `fw synth` loading the 41 bundles in one process took 2.9 s). The same neutral
 * environment, checks, errors and kept results as `readHandlerInfo`.
 */
export async function readHandlerInfoAsync(app: AppDefinition, bundle: AppBundle, options: HandlerInfoOptions = {}): Promise<Map<string, HandlerInfo | undefined>> {
  if (bundle.functions.size === 0) return new Map();
  const { infos, cache, files } = knownAndPending(app, bundle, options);
  if (Object.keys(files).length === 0) return infos;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-handler-info-'));
  try {
    const results = await Promise.allSettled(balancedChunks(files, Math.max(1, os.availableParallelism())).map((chunk, index) => readChunk(app, chunk, tmp, index)));
    const failed = results.find((one): one is PromiseRejectedResult => one.status === 'rejected');
    if (failed) throw failed.reason;
    const result: ReaderResult = Object.assign({}, ...results.map((one) => (one as PromiseFulfilledResult<ReaderResult>).value));
    return collect(bundle, files, result, infos, cache);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
