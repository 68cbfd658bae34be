import * as path from 'node:path';
import { Component, IgnoreFile, JsonFile, Project } from 'projen';

/** The version every package of the repository is released under, kept in lock-step. */
export const FRAMEWORK_VERSION = '0.1.0';

/** Dependency versions that must match across packages (one TypeScript, one CDK, one test stack), pinned once here. */
export const VERSIONS = {
  typescript: '~6.0.3',
  tsx: '^4.20.0',
  mocha: '^12.0.0',
  chai: '^6.2.0',
  typesMocha: '^10.0.10',
  fastCheck: '^4.3.0',
} as const;

export interface WorkspacePackageOptions {
  /** Folder under `packages/`; the package name is `@framework/<name>` (`pro-x` becomes `@framework-pro/x`). */
  readonly name: string;
  readonly description: string;
  /** Runtime dependencies, `name: range`. */
  readonly deps?: Record<string, string>;
  readonly devDeps?: Record<string, string>;
  readonly peerDeps?: Record<string, string>;
  /** Sibling packages this one imports (by folder name): dependencies and tsc project references. */
  readonly workspaceDeps?: string[];
  /**
   * Executables: `{ fw: 'bin/fw.js' }`. Each must be a committed file (a launcher importing the built entry), because
   * npm links a bin only if its file exists when it installs, before anything is built; the folder is published.
   */
  readonly bin?: Record<string, string>;
  /** Extra `exports` entries beyond `.`: subpath to lib file without extension, e.g. `{ './names': 'names' }`. */
  readonly subpathExports?: Record<string, string>;
  /** Mocha per-test timeout in ms. @default 10000 */
  readonly testTimeout?: number;
  /** Runtime packages are side-effect free so bundlers can tree-shake them. @default true */
  readonly sideEffectFree?: boolean;
  /**
   * The only modules with side effects at import (package.json `sideEffects` as a list, paths like `./lib/index.js`):
   * a bundler then drops the package's other modules when nothing they export is used. Overrides `sideEffectFree`.
   * @default - `sideEffectFree` decides for the whole package
   */
  readonly sideEffectFiles?: readonly string[];
  /** @default 'Apache-2.0' */
  readonly license?: string;
}

export function packageNameOf(folder: string): string {
  return folder.startsWith('pro-') ? `@framework-pro/${folder.slice(4)}` : `@framework/${folder}`;
}

/**
 * One npm workspace under `packages/<name>`: package.json, tsconfig, mocha config and .npmignore are generated here so
 * every package has the same scripts, exports map, files list and compiler settings ("packages alike"). The root
 * installs for all of them (npm workspaces); `tsc -b packages` builds them in dependency order.
 */
export class WorkspacePackage extends Component {
  public readonly name: string;
  public readonly packageName: string;
  public readonly dir: string;

  constructor(project: Project, options: WorkspacePackageOptions) {
    super(project, `workspace-${options.name}`);
    this.name = options.name;
    this.packageName = packageNameOf(options.name);
    this.dir = path.posix.join('packages', options.name);
    const workspaceDeps = options.workspaceDeps ?? [];

    const dependencies: Record<string, string> = {};
    for (const dep of workspaceDeps) dependencies[packageNameOf(dep)] = FRAMEWORK_VERSION;
    Object.assign(dependencies, options.deps ?? {});

    const exportsMap: Record<string, unknown> = {
      '.': { types: './lib/index.d.ts', default: './lib/index.js' },
    };
    for (const [subpath, file] of Object.entries(options.subpathExports ?? {})) {
      exportsMap[subpath] = { types: `./lib/${file}.d.ts`, default: `./lib/${file}.js` };
    }
    exportsMap['./package.json'] = './package.json';

    new JsonFile(project, path.posix.join(this.dir, 'package.json'), {
      obj: {
        name: this.packageName,
        version: FRAMEWORK_VERSION,
        description: options.description,
        license: options.license ?? 'Apache-2.0',
        type: 'module',
        engines: { node: '>=20' },
        sideEffects: options.sideEffectFiles ? [...options.sideEffectFiles] : !(options.sideEffectFree ?? true),
        main: './lib/index.js',
        types: './lib/index.d.ts',
        exports: exportsMap,
        bin: options.bin,
        files: ['lib', '!lib/.tsbuildinfo', ...binFolders(options.bin), 'README.md'],
        scripts: { build: 'tsc -b', test: 'mocha' },
        dependencies: sortKeys(dependencies),
        peerDependencies: options.peerDeps ? sortKeys(options.peerDeps) : undefined,
        devDependencies: options.devDeps ? sortKeys(options.devDeps) : undefined,
        publishConfig: { access: 'public', tag: 'dev' },
        repository: { type: 'git', url: 'https://github.com/framework-dev/framework.git', directory: this.dir },
      },
      newline: true,
      committed: true,
    });

    new JsonFile(project, path.posix.join(this.dir, 'tsconfig.json'), {
      obj: {
        extends: '../../tsconfig.packages.json',
        compilerOptions: { rootDir: 'src', outDir: 'lib', tsBuildInfoFile: 'lib/.tsbuildinfo' },
        include: ['src/**/*.ts'],
        references: workspaceDeps.map((dep) => ({ path: `../${dep}` })),
      },
      newline: true,
      committed: true,
    });

    // Tests run from TypeScript source through tsx; sibling packages they import resolve to their built `lib`.
    new JsonFile(project, path.posix.join(this.dir, '.mocharc.json'), {
      obj: { 'spec': ['test/**/*.test.ts'], 'node-option': ['import=tsx'], 'timeout': options.testTimeout ?? 10000, 'recursive': true, 'exit': true },
      newline: true,
      committed: true,
    });

    const ignore = new IgnoreFile(project, path.posix.join(this.dir, '.npmignore'));
    ignore.addPatterns('src/', 'test/', 'tsconfig.json', '.mocharc.json', '*.tsbuildinfo');
  }
}

/** The top folders of the executables (`bin/fw.js` → `bin`) that are not already published as part of `lib`. */
function binFolders(bin: Record<string, string> | undefined): string[] {
  const folders = Object.values(bin ?? {}).map((file) => path.posix.normalize(file).split('/')[0]!);
  return [...new Set(folders)].filter((folder) => folder !== 'lib');
}

function sortKeys(obj: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => a.localeCompare(b)));
}
