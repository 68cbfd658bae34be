import * as fs from 'node:fs';
import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import type * as esbuildTypes from 'esbuild';
import { esbuild, esbuildVersion } from '../../esbuild/index.js';
import { FileStamps } from '../freshness/file-stamps.js';
import type { WatchGate } from '../freshness/watch-gate.js';
import { PackageReach } from './package-reach.js';

/** esbuild's options for a handler, but its entry and output (part of what makes an earlier run's build reusable). */
const BUILD_OPTIONS = {
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'silent',
  write: true,
  metafile: true,
} as const satisfies esbuildTypes.BuildOptions;

/** The file, in the output folder, that lists what each compiled handler was built from (see `reuseLastRun`). */
export const BUILD_MANIFEST = '_builds.json';

/**
 * The project files besides a handler's imports that change how it compiles (esbuild reads `tsconfig.json`; the
 * package's `type`): stamped with its inputs, so editing them is a change too.
 */
const PROJECT_SETTINGS = ['tsconfig.json', 'package.json'];

/** What the manifest keeps of one compiled handler. */
interface ManifestEntry {
  /** The stamps of the files it was built from, taken before the build read them. */
  readonly inputs: Record<string, string>;
  readonly externals: readonly string[];
}

interface Manifest {
  /** esbuild's version and the options: a build by another esbuild or with other options is not reused. */
  readonly key: string;
  readonly files: Record<string, ManifestEntry>;
}

/** The compiled form of one handler file, or why it did not compile. */
export type BundleResult = { readonly ok: true; readonly bundle: string } | { readonly ok: false; readonly message: string };

/**
 * Compiles handler files with esbuild, one incremental context per file, so a syntax error in one route leaves the
 * others serving and a rebuild after an edit costs milliseconds. Code under the project (`src/lib/` included) is
 * bundled in; packages stay external and load from the project's node_modules, as they are not edited while
 * `fw dev` runs. Output goes to `.fw/dev/build/`, mirroring the project's layout. Each build stamps the files it
 * read (esbuild's metafile lists them), stamped before it reads them, so `changedInput` tells whether a save is not
 * in the last build.
 */
export class HandlerBundler {
  private readonly contexts = new Map<string, Promise<esbuildTypes.BuildContext>>();
  private readonly results = new Map<string, BundleResult>();
  private readonly externalsByFile = new Map<string, readonly string[]>();
  private readonly inputsByFile = new Map<string, FileStamps>();
  private readonly databaseReach = new PackageReach();

  constructor(
    private readonly rootDir: string,
    private readonly outDir: string,
  ) {}

  /** The last result for a file (after `build`). */
  result(file: string): BundleResult | undefined {
    return this.results.get(file);
  }

  /** (Re)compiles every file given; with `prune`, drops the contexts of files not listed (removed from the app). */
  async build(files: readonly string[], prune = true): Promise<void> {
    const wanted = new Set(files);
    for (const [file, context] of this.contexts) {
      if (prune && !wanted.has(file)) {
        this.contexts.delete(file);
        this.results.delete(file);
        this.externalsByFile.delete(file);
        this.inputsByFile.delete(file);
        void context.then((c) => c.dispose(), () => undefined);
      }
    }
    await Promise.all(files.map((file) => this.buildOne(file)));
    this.saveManifest();
  }

  /**
   * Takes, for each file given, the previous run's compiled handler when none of the files it was built from changed
   * since (the manifest's stamps, taken before that build read them, still match): a restart then starts esbuild
   * only for what changed, and the first request finds its handler built. Returns the files still to compile.
   */
  reuseLastRun(files: readonly string[]): string[] {
    const manifest = this.readManifest();
    if (!manifest) return [...files];
    const left: string[] = [];
    const seen = new Map<string, string>();
    for (const file of files) {
      const entry = manifest.files[file];
      const bundle = this.bundlePath(file);
      const inputs = entry && FileStamps.restore(entry.inputs, this.rootDir);
      if (!entry || !inputs || this.results.has(file) || !fs.existsSync(bundle) || inputs.changed(seen) !== undefined) {
        left.push(file);
        continue;
      }
      this.inputsByFile.set(file, inputs);
      this.externalsByFile.set(file, entry.externals);
      this.results.set(file, { ok: true, bundle });
    }
    return left;
  }

  private bundlePath(file: string): string {
    return path.join(this.outDir, file.replace(/\.[cm]?[jt]sx?$/, '.mjs'));
  }

  private settingsFiles(): string[] {
    return PROJECT_SETTINGS.map((name) => path.join(this.rootDir, name));
  }

  private manifestKey(): string {
    return JSON.stringify({ esbuild: esbuildVersion(), options: BUILD_OPTIONS });
  }

  private readManifest(): Manifest | undefined {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(this.outDir, BUILD_MANIFEST), 'utf8')) as Manifest;
      return manifest.key === this.manifestKey() && typeof manifest.files === 'object' ? manifest : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Writes what each compiled handler was built from, for the next run (`reuseLastRun`). A handler whose stamps
   * cannot be trusted alone (a file saved within the last clock tick) or that did not compile is left out: the next
   * run compiles it.
   */
  private saveManifest(): void {
    const files: Record<string, ManifestEntry> = {};
    for (const [file, result] of this.results) {
      const inputs = result.ok ? this.inputsByFile.get(file)?.saved(this.rootDir) : undefined;
      if (inputs) files[file] = { inputs, externals: this.externalsByFile.get(file) ?? [] };
    }
    const manifest: Manifest = { key: this.manifestKey(), files };
    const target = path.join(this.outDir, BUILD_MANIFEST);
    try {
      fs.mkdirSync(this.outDir, { recursive: true });
      // Written aside then renamed: a run that stops mid-write never leaves a manifest the next one cannot read.
      fs.writeFileSync(`${target}.${process.pid}`, JSON.stringify(manifest));
      fs.renameSync(`${target}.${process.pid}`, target);
    } catch {
      // Only an accelerator: without it the next run compiles every handler.
    }
  }

  private async buildOne(file: string): Promise<void> {
    let context = this.contexts.get(file);
    if (!context) {
      const outfile = this.bundlePath(file);
      context = esbuild().then((api) => api.context({ ...BUILD_OPTIONS, absWorkingDir: this.rootDir, entryPoints: [path.join(this.rootDir, file)], outfile }));
      this.contexts.set(file, context);
      context.catch(() => this.contexts.delete(file));
    }
    // Stamped before esbuild reads them: a save during the build shows as a change afterwards.
    const inputs = new FileStamps(this.inputsByFile.get(file)?.files ?? [path.join(this.rootDir, file), ...this.settingsFiles()]);
    this.inputsByFile.set(file, inputs);
    try {
      const built = await (await context).rebuild();
      // Project files only: packages are external, and what esbuild bundles from node_modules is not edited.
      inputs.update([...Object.keys(built.metafile?.inputs ?? {}).filter((f) => !f.includes('node_modules')).map((f) => path.resolve(this.rootDir, f)), ...this.settingsFiles()]);
      const externals = Object.values(built.metafile?.outputs ?? {}).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
      this.externalsByFile.set(file, externals);
      this.results.set(file, { ok: true, bundle: this.bundlePath(file) });
    } catch (error) {
      const failure = error as { errors?: esbuildTypes.Message[]; message?: string };
      const message = failure.errors?.length
        ? failure.errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`).join('\n')
        : String(failure.message ?? error);
      this.results.set(file, { ok: false, message });
      inputs.addFolders();
    }
  }

  /**
   * The first file a compiled handler (or the one of `file`) was built from that changed since (written, replaced,
   * deleted), or undefined.
   * After a failed build, also a change in the folders of its files (the file a failed import looks for, created).
   */
  changedInput(file?: string, gate?: WatchGate): string | undefined {
    if (file !== undefined) return this.inputsByFile.get(file)?.changed(undefined, gate);
    const seen = new Map<string, string>();
    for (const inputs of this.inputsByFile.values()) {
      const changed = inputs.changed(seen);
      if (changed) return changed;
    }
    return undefined;
  }

  /** The packages the compiled handlers import (bare specifiers, no `node:` built-ins), sorted. */
  externals(): string[] {
    const all = new Set<string>();
    for (const list of this.externalsByFile.values()) for (const spec of list) if (isPackage(spec)) all.add(spec);
    return [...all].sort();
  }

  /**
   * The packages the most compiled handlers import (the runtime, in an app of `handler()` routes; ties all included),
   * sorted; none when no handler imports a package. What a thread started before the first request can import
   * without knowing which handler that request needs: the likeliest to be needed, and not every package of the app.
   */
  mostImportedExternals(): string[] {
    const counts = new Map<string, number>();
    for (const list of this.externalsByFile.values()) for (const spec of new Set(list.filter(isPackage))) counts.set(spec, (counts.get(spec) ?? 0) + 1);
    const most = Math.max(0, ...counts.values());
    return [...counts].filter(([, count]) => count === most).map(([spec]) => spec).sort();
  }

  /**
   * Whether the compiled handler of `file` may open a database connection: one of the packages it imports reaches a
   * PostgreSQL client (`package-reach.ts`). True when it is not compiled yet (when in doubt, it waits for the database).
   */
  reachesDatabase(file: string): boolean {
    const externals = this.externalsByFile.get(file);
    return externals === undefined || this.databaseReach.anyReaches(externals, this.rootDir);
  }

  /** Where compiled files go. */
  get outputDir(): string {
    return this.outDir;
  }

  async dispose(): Promise<void> {
    const contexts = [...this.contexts.values()];
    this.contexts.clear();
    await Promise.all(contexts.map((c) => c.then((x) => x.dispose(), () => undefined)));
  }
}

/** A bare specifier of a package (not a `node:` built-in, not a relative or absolute path). */
function isPackage(spec: string): boolean {
  return !spec.startsWith('node:') && !spec.startsWith('.') && !spec.startsWith('/') && !isBuiltin(spec);
}
