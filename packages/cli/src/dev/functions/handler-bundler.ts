import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { FileStamps } from '../freshness/file-stamps.js';

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
  private readonly contexts = new Map<string, Promise<esbuild.BuildContext>>();
  private readonly results = new Map<string, BundleResult>();
  private readonly externalsByFile = new Map<string, readonly string[]>();
  private readonly inputsByFile = new Map<string, FileStamps>();

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
  }

  private async buildOne(file: string): Promise<void> {
    let context = this.contexts.get(file);
    if (!context) {
      const outfile = path.join(this.outDir, file.replace(/\.[cm]?[jt]sx?$/, '.mjs'));
      context = esbuild.context({
        absWorkingDir: this.rootDir,
        entryPoints: [path.join(this.rootDir, file)],
        outfile,
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        logLevel: 'silent',
        write: true,
        metafile: true,
      });
      this.contexts.set(file, context);
      context.catch(() => this.contexts.delete(file));
    }
    // Stamped before esbuild reads them: a save during the build shows as a change afterwards.
    const inputs = new FileStamps(this.inputsByFile.get(file)?.files ?? [path.join(this.rootDir, file)]);
    this.inputsByFile.set(file, inputs);
    try {
      const built = await (await context).rebuild();
      // Project files only: packages are external, and what esbuild bundles from node_modules is not edited.
      inputs.update(Object.keys(built.metafile?.inputs ?? {}).filter((f) => !f.includes('node_modules')).map((f) => path.resolve(this.rootDir, f)));
      const externals = Object.values(built.metafile?.outputs ?? {}).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
      this.externalsByFile.set(file, externals);
      this.results.set(file, { ok: true, bundle: path.join(this.outDir, file.replace(/\.[cm]?[jt]sx?$/, '.mjs')) });
    } catch (error) {
      const failure = error as { errors?: esbuild.Message[]; message?: string };
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
  changedInput(file?: string): string | undefined {
    if (file !== undefined) return this.inputsByFile.get(file)?.changed();
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
    for (const list of this.externalsByFile.values()) for (const spec of list) if (!spec.startsWith('node:') && !spec.startsWith('.') && !spec.startsWith('/') && !isBuiltin(spec)) all.add(spec);
    return [...all].sort();
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
