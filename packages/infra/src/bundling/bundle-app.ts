import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { apiKeyAuthorizerFunctionName, LAMBDA_HANDLER, type AppDefinition, type FunctionUnit } from '@framework/core';
import { buildSync, type BuildFailure, type Metafile } from 'esbuild';
import { InfraError } from '../errors.js';
import { cachedBuild, cachedBuildSync, type CachedBuildOptions, type HashMemo } from './build-cache.js';
import { referencesOf } from './bundle-references.js';
import { packageNameOf, packagesOfOutput } from './bundle-usage.js';
import { lambdaBundleDefines } from './lambda-defines.js';
import { routeOptionDefines } from './route-defines.js';
import { serviceBundleDefines } from './service-defines.js';

/** Options of `bundleApp`. */
export interface BundleOptions {
  /**
   * Folder the bundles are written to (emptied first); one sub-folder per function.
   * @default - `.fw/build/<stage>` in the project
   */
  readonly outDir?: string;
  /** @default true */
  readonly minify?: boolean;
  /** Linked source maps (`index.mjs.map`, without sources content) next to each bundle. @default true */
  readonly sourcemap?: boolean;
  /**
   * Packages left out of the bundles. The Lambda Node.js runtime ships the AWS SDK v3, so it stays out by default
   * (as CDK's NodejsFunction does); `pg-native` is an optional native add-on of `pg` that cannot be bundled.
   * @default ['@aws-sdk/*', 'pg-native']
   */
  readonly external?: readonly string[];
  /**
   * Reuse a previous build whose options and input files' bytes are all the same (`.fw/bundle-cache` in the project):
   * its output files, so the same bytes and asset hashes, without running esbuild again.
   * @default true
   */
  readonly cache?: boolean;
}

/** One function's bundle: a folder holding `index.mjs` (and its source map), deployed as the function's code. */
export interface FunctionBundle {
  readonly unit: FunctionUnit;
  /** Absolute folder of this function's bundle (what `Code.fromAsset` packs). */
  readonly directory: string;
  /** Absolute path of `index.mjs`. */
  readonly entryFile: string;
  /** The Lambda handler setting. */
  readonly handler: string;
  /** Bare package names the bundle imports (bundled or external): how the constructs infer what a function uses. */
  readonly packages: ReadonlySet<string>;
  /**
   * The project's own code in this function, after tree shaking, without comments, every package left out: where
   * `referencesOf` reads which queues, functions and buckets the function names.
   */
  readonly projectCode: string;
  /** Bare packages the project's own code imports (not those the framework's packages import for their own use). */
  readonly projectPackages: ReadonlySet<string>;
}

/** A database's migration function: `@framework/data/migrate-handler` with the `.sql` files in `migrations/`. */
export interface MigrationBundle {
  readonly databaseId: string;
  /** Core's `migrationFunctionName(project, stage, id)`. */
  readonly functionName: string;
  readonly directory: string;
  readonly handler: string;
  /** SHA-256 of the migration files (names and contents): deployment re-runs migrations when it changes. */
  readonly migrationsHash: string;
}

/** The Cognito pre token generation trigger (`@framework/auth/pre-token-generation`), bundled when there are roles. */
export interface AuthTriggerBundle {
  /** Core's `preTokenGenerationFunctionName`. */
  readonly functionName: string;
  readonly directory: string;
  readonly handler: string;
}

/** The WebSocket API's `$connect` authorizer (`@framework/auth/ws-connect-authorizer`), bundled when the app has both. */
export type WsAuthorizerBundle = AuthTriggerBundle;

/** The HTTP API's API-key authorizer (`@framework/integrations/api-key-authorizer`), bundled when a function creates API keys. */
export type ApiKeyAuthorizerBundle = AuthTriggerBundle;

/** Every function of an app, bundled by one esbuild build. */
export interface AppBundle {
  readonly outDir: string;
  /** By function name. */
  readonly functions: ReadonlyMap<string, FunctionBundle>;
  /**
   * By database id; empty when the app has no database or the project does not depend on `@framework/data`.
   */
  readonly migrations: ReadonlyMap<string, MigrationBundle>;
  /** Present when the app has the auth intent (every user pool gets the trigger). */
  readonly authTrigger?: AuthTriggerBundle;
  /** Present when the app has a WebSocket API and the auth intent (deployed only when `$connect` declares scopes). */
  readonly wsAuthorizer?: WsAuthorizerBundle;
  /** The framework's WebSocket function (`wsRegistryMain` of `@framework/runtime`), when the app has a WebSocket API. */
  readonly wsRegistry?: WsAuthorizerBundle;
  /**
   * Present when a function's code calls `createApiKeys(` of `@framework/integrations` (deployed only when a route
   * accepts keys: `auth: [..., 'apiKey']`).
   */
  readonly apiKeyAuthorizer?: ApiKeyAuthorizerBundle;
}

/** The migration handler of the project's `@framework/data`, if the project has it. */
function resolveMigrateHandler(rootDir: string): string | undefined {
  try {
    return createRequire(path.join(rootDir, 'package.json')).resolve('@framework/data/migrate-handler');
  } catch {
    return undefined;
  }
}

/**
 * The trigger's handler: the project's own `@framework/auth` when it has one (the version its code uses), else the one
 * this package depends on, so an app with roles deploys its trigger without adding a dependency.
 */
function resolveAuthTrigger(rootDir: string, entry = '@framework/auth/pre-token-generation'): string {
  try {
    return createRequire(path.join(rootDir, 'package.json')).resolve(entry);
  } catch {
    return createRequire(import.meta.url).resolve(entry);
  }
}

/**
 * A framework entry of a package the project itself depends on, or undefined when the project's copy lacks it (an
 * older version): the feature it serves is then left out, as before it existed.
 */
function resolveProjectEntry(rootDir: string, entry: string): string | undefined {
  try {
    return createRequire(path.join(rootDir, 'package.json')).resolve(entry);
  } catch {
    return undefined;
  }
}

/** Copies a database's `.sql` files (sorted) into its function folder and hashes names and contents. */
function copyMigrations(sourceDir: string, targetDir: string): string {
  const hash = createHash('sha256');
  fs.mkdirSync(targetDir, { recursive: true });
  const files = fs.existsSync(sourceDir) ? fs.readdirSync(sourceDir).filter((f) => f.endsWith('.sql')).sort() : [];
  for (const file of files) {
    const content = fs.readFileSync(path.join(sourceDir, file));
    fs.writeFileSync(path.join(targetDir, file), content);
    hash.update(file).update('\0').update(content).update('\0');
  }
  return hash.digest('hex');
}

export const DEFAULT_EXTERNALS: readonly string[] = ['@aws-sdk/*', 'pg-native'];

/**
 * Packages that only tools load, left out of the bundle of a function whose own code does not import them (esbuild
 * then keeps their `require` as it is, and nothing calls it). `typescript` (9 MB): `cosmiconfig`, which mjml's
 * `htmlnano` imports (the email templates of `@framework/notify`), requires it only to read a `.ts` config file,
 * which no function has; bundled, it was 3.6 MB of each function that sends email, parsed at every cold start.
 */
export const TOOL_ONLY_PACKAGES: readonly string[] = ['typescript'];

/**
 * ESM output needs `require` for the CommonJS packages esbuild inlines (their `require('node:https')` would otherwise
 * fail with "Dynamic require of ... is not supported"); the alias avoids clashing with a user's own `createRequire`.
 */
const REQUIRE_BANNER = "import { createRequire as __fwCreateRequire } from 'node:module'; const require = __fwCreateRequire(import.meta.url);";

/**
 * `pg` asks at load whether it runs in a Cloudflare Worker (`isCloudflareRuntime` in `pg/lib/stream.js`): it reads
 * `navigator.userAgent`, and where there is no `navigator` (Node.js 20; 21 and later have one) it evaluates
 * `typeof Response` and `new Response(...)`, which makes Node load its whole fetch implementation: 25-30 ms of every
 * cold start of a database function. Bundled code reads `navigator` from this module-scope stand-in instead (the
 * `define` below; `globalThis` is left alone): Node's own where it exists, else an object shaped like Node 22's, so
 * `pg` (and any library asking the same question) gets its answer without touching fetch.
 */
const NAVIGATOR_BANNER = "const __fwNavigator = globalThis.navigator ?? { userAgent: `Node.js/${process.versions.node.split('.')[0]}`, platform: process.platform, language: 'en-US' };";
const NAVIGATOR_DEFINE: Readonly<Record<string, string>> = { navigator: '__fwNavigator' };

/** A failed esbuild build as the error the user acts on: the first errors with their file and line. */
function bundleFailure(error: unknown): InfraError {
  const failure = error as Partial<BuildFailure>;
  const lines = (failure.errors ?? []).slice(0, 10).map((e) => `  - ${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`);
  return new InfraError('FW_ERR_INFRA_BUNDLE', `Bundling the app's functions failed:\n${lines.join('\n') || String(error)}\nFix the files above (they must build with esbuild as ESM for Node.js), then synthesize again.`, { cause: error });
}

/**
 * The project's own code of each function: a second, in-memory esbuild build of the same entry points with every
 * package external (so the framework's generic code is left out), tree-shaken (a helper the function never calls is
 * left out) and without comments. Only project files are parsed, so it costs a fraction of the main build.
 */
function projectCodeOf(app: AppDefinition, units: readonly FunctionUnit[]): Map<string, { code: string; packages: Set<string> }> {
  const out = new Map<string, { code: string; packages: Set<string> }>();
  if (!units.length) return out;
  const entryPoints: Record<string, string> = {};
  for (const unit of units) entryPoints[unit.functionName] = path.join(app.rootDir, unit.file);
  let result: ReturnType<typeof buildSync> & { metafile: Metafile };
  try {
    result = buildSync({
      entryPoints,
      outdir: path.join(app.rootDir, '.fw', 'project-code'),
      absWorkingDir: app.rootDir,
      bundle: true,
      splitting: false,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      minify: false,
      legalComments: 'none',
      metafile: true,
      logLevel: 'silent',
      write: false,
    });
  } catch (error) {
    // The first build of the sources: a syntax error in a function surfaces here.
    throw bundleFailure(error);
  }
  const byPath = new Map((result.outputFiles ?? []).map((f) => [path.resolve(f.path), f.text]));
  for (const [outputPath, output] of Object.entries(result.metafile.outputs)) {
    const name = path.basename(outputPath, '.js');
    const packages = new Set<string>();
    for (const imported of output.imports) {
      const pkg = packageNameOf(imported.path);
      if (imported.external && pkg) packages.add(pkg);
    }
    out.set(name, { code: byPath.get(path.resolve(app.rootDir, outputPath)) ?? '', packages });
  }
  return out;
}

/** What `bundleApp` decided before building: the output folder, the esbuild builds (one per group of defines), the names. */
interface BundlePlan {
  readonly app: AppDefinition;
  readonly outDir: string;
  /** One esbuild build per group of functions with the same defines. */
  readonly builds: readonly CachedBuildOptions[];
  readonly cacheDir: string | undefined;
  readonly project: Map<string, { code: string; packages: Set<string> }>;
  readonly migrateHandler: string | undefined;
  readonly authTriggerName: string | undefined;
  readonly wsAuthorizerName: string | undefined;
  readonly wsRegistryName: string | undefined;
  readonly apiKeyAuthorizerName: string | undefined;
}

/**
 * Everything `bundleApp` does before esbuild runs: the output folder emptied, the entry points, the project's own code
 * of each function (`projectCodeOf`) and from it the groups of functions sharing their defines. When the app has
 * nothing to bundle, the (empty) bundle itself.
 */
function planBundle(app: AppDefinition, options: BundleOptions): BundlePlan | AppBundle {
  const outDir = path.resolve(options.outDir ?? path.join(app.rootDir, '.fw', 'build', app.stage));
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const entryPoints: Record<string, string> = {};
  for (const unit of app.units) entryPoints[`${unit.functionName}/index`] = path.join(app.rootDir, unit.file);

  const migrateHandler = app.databases.length ? resolveMigrateHandler(app.rootDir) : undefined;
  if (migrateHandler) for (const db of app.databases) entryPoints[`${db.migrationFunctionName}/index`] = migrateHandler;
  // Every user pool gets the trigger: it puts the user's tenant into access tokens (as fw dev's issuer does for every
  // app), and the scopes of their roles when the config declares roles.
  const authTriggerName = app.auth ? app.auth.preTokenGenerationFunctionName : undefined;
  if (authTriggerName) entryPoints[`${authTriggerName}/index`] = resolveAuthTrigger(app.rootDir);
  const wsAuthorizerName = app.auth && app.ws ? app.ws.connectAuthorizerFunctionName : undefined;
  if (wsAuthorizerName) entryPoints[`${wsAuthorizerName}/index`] = resolveAuthTrigger(app.rootDir, '@framework/auth/ws-connect-authorizer');
  const wsRegistryName = app.ws?.registryFunctionName;
  if (wsRegistryName) entryPoints[`${wsRegistryName}/index`] = wsRegistryEntry(app.rootDir, outDir);
  if (Object.keys(entryPoints).length === 0) return { outDir, functions: new Map(), migrations: new Map() };
  // Read first: which service clients each function names and whether it declares route options decide its defines
  // (`serviceBundleDefines`, `routeOptionDefines`). Functions
  // with the same defines share one esbuild build (most apps need one or two); the framework's own entries
  // (migrations, the auth trigger) keep every client.
  const project = projectCodeOf(app, app.units);
  // The API-key authorizer comes from the project's own @framework/integrations (the one its createApiKeys uses).
  // Without it (an @framework/integrations that predates it) routes that accept keys verify callers in their function.
  const createsApiKeys = [...project.values()].some((own) => referencesOf(own.code, own.packages).apiKeys === true);
  const apiKeyAuthorizerEntry = createsApiKeys ? resolveProjectEntry(app.rootDir, '@framework/integrations/api-key-authorizer') : undefined;
  const apiKeyAuthorizerName = apiKeyAuthorizerEntry ? apiKeyAuthorizerFunctionName(app.project, app.stage) : undefined;
  if (apiKeyAuthorizerName) entryPoints[`${apiKeyAuthorizerName}/index`] = apiKeyAuthorizerEntry!;
  const groups = new Map<string, { define: Record<string, string>; toolsLeftOut: string[]; entryPoints: Record<string, string> }>();
  for (const [entry, file] of Object.entries(entryPoints)) {
    const own = project.get(entry.slice(0, -'/index'.length));
    const define = own ? { ...serviceBundleDefines(referencesOf(own.code, own.packages)), ...routeOptionDefines(own.code, own.packages) } : {};
    const toolsLeftOut = TOOL_ONLY_PACKAGES.filter((name) => !own?.packages.has(name));
    const key = `${Object.keys(define).sort().join(',')}|${toolsLeftOut.join(',')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { define, toolsLeftOut, entryPoints: {} }));
    group.entryPoints[entry] = file;
  }
  const builds = [...groups.values()].map((group): CachedBuildOptions => ({
    entryPoints: group.entryPoints,
    outdir: outDir,
    absWorkingDir: app.rootDir,
    bundle: true,
    splitting: false,
    platform: 'node',
    target: app.config.settings.functions.runtime === 'nodejs20.x' ? 'node20' : 'node22',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    mainFields: ['module', 'main'],
    banner: { js: `${REQUIRE_BANNER} ${NAVIGATOR_BANNER}` },
    define: { ...NAVIGATOR_DEFINE, ...lambdaBundleDefines(), ...group.define },
    minify: options.minify ?? true,
    sourcemap: (options.sourcemap ?? true) ? 'linked' : false,
    sourcesContent: false,
    legalComments: 'none',
    external: [...(options.external ?? DEFAULT_EXTERNALS), ...group.toolsLeftOut],
    logLevel: 'silent',
  }));
  const cacheDir = (options.cache ?? true) ? path.join(app.rootDir, '.fw', 'bundle-cache') : undefined;
  return { app, outDir, builds, cacheDir, project, migrateHandler, authTriggerName, wsAuthorizerName, wsRegistryName, apiKeyAuthorizerName };
}

/** The bundle `planBundle` planned, from the metafiles of its builds (in the order of `plan.builds`). */
function assembleBundle(plan: BundlePlan, built: readonly Metafile[]): AppBundle {
  const { app, outDir, project, migrateHandler, authTriggerName, wsAuthorizerName, wsRegistryName, apiKeyAuthorizerName } = plan;
  const metafile: Metafile = { inputs: {}, outputs: {} };
  for (const one of built) {
    Object.assign(metafile.inputs, one.inputs);
    Object.assign(metafile.outputs, one.outputs);
  }
  const functions = new Map<string, FunctionBundle>();
  for (const unit of app.units) {
    const directory = path.join(outDir, unit.functionName);
    const entryFile = path.join(directory, 'index.mjs');
    const outputKey = path.relative(app.rootDir, entryFile).split(path.sep).join('/');
    const own = project.get(unit.functionName) ?? { code: '', packages: new Set<string>() };
    functions.set(unit.functionName, { unit, directory, entryFile, handler: LAMBDA_HANDLER, packages: packagesOfOutput(metafile, outputKey), projectCode: own.code, projectPackages: own.packages });
  }
  const migrations = new Map<string, MigrationBundle>();
  if (migrateHandler) {
    for (const db of app.databases) {
      const directory = path.join(outDir, db.migrationFunctionName);
      const migrationsHash = copyMigrations(path.join(app.rootDir, db.migrationsDir), path.join(directory, 'migrations'));
      migrations.set(db.id, { databaseId: db.id, functionName: db.migrationFunctionName, directory, handler: LAMBDA_HANDLER, migrationsHash });
    }
  }
  const authTrigger = authTriggerName ? { functionName: authTriggerName, directory: path.join(outDir, authTriggerName), handler: LAMBDA_HANDLER } : undefined;
  const wsAuthorizer = wsAuthorizerName ? { functionName: wsAuthorizerName, directory: path.join(outDir, wsAuthorizerName), handler: LAMBDA_HANDLER } : undefined;
  const wsRegistry = wsRegistryName ? { functionName: wsRegistryName, directory: path.join(outDir, wsRegistryName), handler: LAMBDA_HANDLER } : undefined;
  const apiKeyAuthorizer = apiKeyAuthorizerName ? { functionName: apiKeyAuthorizerName, directory: path.join(outDir, apiKeyAuthorizerName), handler: LAMBDA_HANDLER } : undefined;
  return { outDir, functions, migrations, authTrigger, wsAuthorizer, wsRegistry, ...(apiKeyAuthorizer ? { apiKeyAuthorizer } : {}) };
}

/**
 * Bundles every function of the app (routes, standalone functions, queue consumers, crons) with an entry point per
 * function, in one esbuild build per group of functions sharing their defines (most apps need one or two).
 * Splitting is off on purpose: each function folder is self-contained, so its
 * asset hash depends only on its own code and an unchanged function is never redeployed because a shared chunk
 * moved. esbuild's output is deterministic, and the folder is emptied first, so the same sources give the same bytes.
 * Synchronous, for a CDK construct that bundles while it is built; `bundleAppAsync` runs the builds at once.
 */
export function bundleApp(app: AppDefinition, options: BundleOptions = {}): AppBundle {
  const plan = planBundle(app, options);
  if (!('builds' in plan)) return plan;
  const hashes: HashMemo = new Map();
  let built: Metafile[];
  try {
    built = plan.builds.map((build) => cachedBuildSync(build, plan.cacheDir, hashes));
  } catch (error) {
    throw bundleFailure(error);
  }
  return assembleBundle(plan, built);
}

/**
 * `bundleApp` with every group's esbuild build started at once (esbuild's asynchronous API: its service process
 * spreads them over the cores), for a caller that bundles before it constructs the stack (`fw synth`). The same
 * builds with the same options, so the same bytes, asset hashes and kept builds as `bundleApp`.
 */
export async function bundleAppAsync(app: AppDefinition, options: BundleOptions = {}): Promise<AppBundle> {
  const plan = planBundle(app, options);
  if (!('builds' in plan)) return plan;
  const hashes: HashMemo = new Map();
  // Every build settles before a failure is reported: the others still write their bundles and the cache while one
  // fails, and a caller that then removes the output (or the project) must not race them. The first failing group
  // in the plan's order is the one reported, whichever finished first.
  const results = await Promise.allSettled(plan.builds.map((build) => cachedBuild(build, plan.cacheDir, hashes)));
  const failed = results.find((one): one is PromiseRejectedResult => one.status === 'rejected');
  if (failed) throw bundleFailure(failed.reason);
  return assembleBundle(plan, results.map((one) => (one as PromiseFulfilledResult<Metafile>).value));
}

/**
 * The entry of the framework's WebSocket function: a one-line module re-exporting the runtime's `wsRegistryMain` as
 * `main`, written next to the build (the runtime has no subpath for it: it is one export of the package).
 */
function wsRegistryEntry(rootDir: string, outDir: string): string {
  const file = path.join(outDir, '.entries', 'ws-registry.mjs');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `export { wsRegistryMain as main } from ${JSON.stringify(resolveAuthTrigger(rootDir, '@framework/runtime'))};\n`);
  return file;
}
