import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, buildSync, version as esbuildVersion, type BuildOptions, type Metafile } from 'esbuild';

/** Entries kept in a cache folder; the least recently used beyond this are removed (a stage's groups, a few stages). */
const MAX_ENTRIES = 48;

/** Bumped when what an entry holds changes: older entries are then never read. */
const FORMAT = 1;

/** Files whose content decides how imports resolve (which package version, which export), looked for up the tree. */
const RESOLUTION_FILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', path.join('node_modules', '.package-lock.json')];

/** What an entry records: enough to tell whether a build would give the same bytes, and what it gave. */
interface CacheManifest {
  readonly format: number;
  /** Every input file of the build (relative to the working directory) and the SHA-256 of its bytes. */
  readonly inputs: Record<string, string>;
  /** Every folder holding an input, and the SHA-256 of its sorted entry names: a file added there may change how an import resolves. */
  readonly folders: Record<string, string>;
  /** The output files, relative to the output folder. */
  readonly outputs: readonly string[];
  /** esbuild's metafile of the build (paths relative to the working directory, as esbuild gives them). */
  readonly metafile: Metafile;
}

/** An esbuild build that writes files: the options `cachedBuildSync` takes. */
export type CachedBuildOptions = BuildOptions & { readonly outdir: string; readonly absWorkingDir: string };

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Hashes already computed during one `bundleApp` (its groups share most inputs: each file is read once), by path;
 * a new one per call, so a file changed between two calls is read again.
 */
export type HashMemo = Map<string, string | undefined>;

function fileHash(file: string, memo?: HashMemo): string | undefined {
  if (memo?.has(file)) return memo.get(file);
  const hash = readHash(file);
  memo?.set(file, hash);
  return hash;
}

function readHash(file: string): string | undefined {
  try {
    return sha256(fs.readFileSync(file));
  } catch {
    return undefined;
  }
}

function folderHash(folder: string, memo?: HashMemo): string | undefined {
  // Folders and files never share a path, so one memo holds both.
  const key = `${folder}${path.sep}`;
  if (memo?.has(key)) return memo.get(key);
  const hash = readListing(folder);
  memo?.set(key, hash);
  return hash;
}

function readListing(folder: string): string | undefined {
  try {
    return sha256(fs.readdirSync(folder).sort().join('\0'));
  } catch {
    return undefined;
  }
}

/**
 * The hash of what, besides the inputs' bytes, decides a build's output: esbuild's version, every build option
 * (entry points, defines, banner, target, output folder...) and the lockfiles, the project's `package.json` and
 * `tsconfig.json` (an install may move which copy of a package an import finds while every old file stays in place).
 */
function buildKey(options: CachedBuildOptions): string {
  const hash = createHash('sha256').update(`${FORMAT}\0${esbuildVersion}\0${JSON.stringify(options)}\0`);
  for (const file of ['package.json', 'tsconfig.json']) hash.update(file).update('\0').update(fileHash(path.join(options.absWorkingDir, file)) ?? '-').update('\0');
  for (let dir = options.absWorkingDir; ; dir = path.dirname(dir)) {
    for (const file of RESOLUTION_FILES) {
      const content = fileHash(path.join(dir, file));
      if (content) hash.update(path.join(dir, file)).update('\0').update(content).update('\0');
    }
    if (path.dirname(dir) === dir) break;
  }
  return hash.digest('hex');
}

/** True when every input still has the recorded bytes and every folder holding one the recorded entries. */
function stillValid(manifest: CacheManifest, workingDir: string, memo: HashMemo | undefined): boolean {
  if (manifest.format !== FORMAT) return false;
  for (const [input, hash] of Object.entries(manifest.inputs)) if (fileHash(path.resolve(workingDir, input), memo) !== hash) return false;
  for (const [folder, hash] of Object.entries(manifest.folders)) if (folderHash(path.resolve(workingDir, folder), memo) !== hash) return false;
  return true;
}

/**
 * Hard-links (or copies, where the file system refuses links) `from` to `to`. Links are safe for the same reason
 * the staged assembly folders are (functions/bundle-code.ts): every writer of a bundle folder replaces files (new
 * inodes) instead of writing into them, so neither side ever changes the other's bytes.
 */
function place(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

/** Keeps the `MAX_ENTRIES` most recently used entries (a hit touches its manifest). */
function prune(cacheDir: string): void {
  const entries = fs.readdirSync(cacheDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = path.join(cacheDir, entry.name);
      try {
        return { dir, used: fs.statSync(path.join(dir, 'manifest.json')).mtimeMs };
      } catch {
        // A folder without a manifest: an interrupted write, never read.
        return { dir, used: 0 };
      }
    })
    .sort((a, b) => b.used - a.used);
  for (const { dir } of entries.slice(MAX_ENTRIES)) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * The kept build for `options` when every one of its input files still has the same bytes: its output files are
 * placed in `options.outdir` and its metafile returned. Undefined when there is none (or it no longer holds); the
 * caller then builds and calls `keepBuild`.
 */
function reuseBuild(options: CachedBuildOptions, entryDir: string, memo: HashMemo | undefined): Metafile | undefined {
  const manifestFile = path.join(entryDir, 'manifest.json');
  let manifest: CacheManifest | undefined;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as CacheManifest;
  } catch {
    return undefined;
  }
  if (!stillValid(manifest, options.absWorkingDir, memo)) return undefined;
  try {
    for (const output of manifest.outputs) place(path.join(entryDir, 'files', output), path.join(options.outdir, output));
    const now = new Date();
    fs.utimesSync(manifestFile, now, now);
    return manifest.metafile;
  } catch {
    // An entry removed or damaged meanwhile: build, and write it again.
    return undefined;
  }
}

/** Keeps a fresh build's outputs and metafile for the next time; a cache that cannot be written only costs time. */
function keepBuild(cacheDir: string, entryDir: string, options: CachedBuildOptions, metafile: Metafile, memo: HashMemo | undefined): void {
  try {
    writeEntry(cacheDir, entryDir, options, metafile, memo);
  } catch {
    // A read-only project, a full disk: the next build runs esbuild again.
  }
}

/**
 * `buildSync(options)` with a cache under `cacheDir`: when a previous build had the same options and every one of its
 * input files still has the same bytes, its output files are placed in `options.outdir` instead of building again
 * (the same bytes, so the same asset hashes) and its metafile is returned. Otherwise esbuild builds, and the outputs,
 * the inputs' hashes and the metafile are kept for the next time. In a profile of the example app's `fw synth`,
 * esbuild was more than half the wall time; most synths follow a change to a few functions, or none.
 *
 * The entry holds no absolute path (keys are hashes; the metafile's paths are relative to the project), so the
 * project folder can be moved (the key then changes, and the next build refills the cache).
 */
export function cachedBuildSync(options: CachedBuildOptions, cacheDir: string | undefined, memo?: HashMemo): Metafile {
  const run = () => buildSync({ ...options, write: true, metafile: true }).metafile!;
  if (!cacheDir) return run();
  const entryDir = path.join(cacheDir, buildKey(options));
  const reused = reuseBuild(options, entryDir, memo);
  if (reused) return reused;
  const metafile = run();
  keepBuild(cacheDir, entryDir, options, metafile, memo);
  return metafile;
}

/**
 * `cachedBuildSync` with esbuild's asynchronous API, so several builds run at once in esbuild's one service process
 * (it spreads them over every core). In the example's cold `fw synth`, its 7 builds one after another through
 * `buildSync` took 37 s wall at load 16; started together through `build`, 10 s, for the same CPU time.
 */
export async function cachedBuild(options: CachedBuildOptions, cacheDir: string | undefined, memo?: HashMemo): Promise<Metafile> {
  const run = async () => (await build({ ...options, write: true, metafile: true })).metafile!;
  if (!cacheDir) return run();
  const entryDir = path.join(cacheDir, buildKey(options));
  const reused = reuseBuild(options, entryDir, memo);
  if (reused) return reused;
  const metafile = await run();
  keepBuild(cacheDir, entryDir, options, metafile, memo);
  return metafile;
}

/** Writes an entry through a temporary sibling renamed into place, so a reader never sees half of one. */
function writeEntry(cacheDir: string, entryDir: string, options: CachedBuildOptions, metafile: Metafile, memo: HashMemo | undefined): void {
  const workingDir = options.absWorkingDir;
  const inputs: Record<string, string> = {};
  const folders: Record<string, string> = {};
  for (const input of Object.keys(metafile.inputs)) {
    const file = path.resolve(workingDir, input);
    const hash = fileHash(file, memo);
    const folder = path.dirname(file);
    const listing = folderHash(folder, memo);
    // An input that is not a file (a virtual module of a plugin): nothing to compare next time, so nothing is kept.
    if (hash === undefined || listing === undefined) return;
    inputs[input] = hash;
    folders[path.relative(workingDir, folder) || '.'] = listing;
  }
  const outputs = Object.keys(metafile.outputs).map((output) => path.relative(options.outdir, path.resolve(workingDir, output)).split(path.sep).join('/'));
  const temporary = `${entryDir}-writing-${process.pid}-${process.hrtime.bigint()}`;
  fs.rmSync(temporary, { recursive: true, force: true });
  for (const output of outputs) place(path.join(options.outdir, output), path.join(temporary, 'files', output));
  const manifest: CacheManifest = { format: FORMAT, inputs, folders, outputs, metafile };
  fs.writeFileSync(path.join(temporary, 'manifest.json'), JSON.stringify(manifest));
  fs.rmSync(entryDir, { recursive: true, force: true });
  try {
    fs.renameSync(temporary, entryDir);
  } catch {
    // Another synth wrote the same entry meanwhile.
    fs.rmSync(temporary, { recursive: true, force: true });
  }
  prune(cacheDir);
}
