import * as fs from 'node:fs';
import * as path from 'node:path';
import { javascript, typescript } from 'projen';
import { AppIntents, AppTypes, BaseConfigFile, FrameworkTasks, FwConfigFile, INTENT_KIND_NAMES, IntentKindName, IntentOf, MochaConfig, SampleFiles, SecurityConfigFile, StageConfigFile, intentKind } from './components';
import { FrameworkAppError, ERROR_CODES } from './errors';
import { sampleReadme } from './files';
import {
  AppClient,
  AuthIntent,
  BillingOptions,
  CacheIntent,
  DatabaseIntent,
  FunctionIntent,
  InfrastructureIntents,
  Preset,
  QueueIntent,
  Role,
  ScheduleIntent,
  Scope,
  Stage,
  StorageIntent,
} from './intents';
import { FrameworkTemplate } from './templates';
import { TEMPLATES, templateFiles } from './templates/catalog';

/** Options of a framework app (`.projenrc.ts`); its infrastructure intents are the fields of `InfrastructureIntents`. */
export interface FrameworkAppOptions extends InfrastructureIntents {
  /**
   * Project name: 2 to 32 lowercase letters, digits or `-`, starting with a letter. Prefixes every deployed name
   * and is the npm package name.
   * @default $BASEDIR
   * @featured
   */
  readonly name: string;

  /** @default - the current directory */
  readonly outdir?: string;

  /**
   * Cloud region to deploy to.
   * @default 'us-east-1'
   * @featured
   */
  readonly region?: string;

  /**
   * The starting point: its routes, tests and intents are added once; everything stays editable.
   * @default FrameworkTemplate.API
   * @featured
   */
  readonly template?: FrameworkTemplate;

  /**
   * Stages and their presets (`config/<stage>.ts` each).
   * @default - dev on the `free` preset and prod on `medium`
   */
  readonly stages?: Stage[];

  /** Account to deploy to (12 digits). @default - the account of the credentials used to deploy */
  readonly account?: string;

  /** OAuth scopes, in addition to the template's. @default - the template's scopes */
  readonly scopes?: Scope[];
  /** App clients, in addition to the template's. @default - the template's app clients */
  readonly appClients?: AppClient[];
  /** Roles: who may hold which scopes (`security.roles`). @default - none */
  readonly roles?: Role[];
  /** The app's plans for `@framework-pro/billing` (`billing` of `fw.config.ts`). @default - none */
  readonly billing?: BillingOptions;

  /**
   * Version of the `@framework/*` packages the app depends on (exact, so every package comes from one release).
   * @default - the version of this `@framework/projen`
   * @featured
   */
  readonly frameworkVersion?: string;

  /**
   * npm registry of the `@framework` scope, written to `.npmrc`.
   * @default - the registry npm is configured with
   * @featured
   */
  readonly frameworkRegistry?: string;

  /** Runtime dependencies (`name@range`). @default - none beyond the framework's */
  readonly deps?: string[];
  /** Development dependencies (`name@range`). @default - none beyond the framework's */
  readonly devDeps?: string[];
  /** Version of projen itself. @default - the projen version installed where the project is generated */
  readonly projenVersion?: string;
}

const PROJEN_NEW_KEY = '__new__';
const PROJECT_NAME = /^[a-z][a-z0-9-]{0,30}[a-z0-9]$/;
const STAGE_NAME = /^[a-z][a-z0-9-]{0,19}$/;
const REGION = /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/;
const DEFAULT_STAGES: Stage[] = [
  { name: 'dev', preset: Preset.FREE },
  { name: 'prod', preset: Preset.MEDIUM },
];
/** Versions of the tools a generated app uses; they match the ones the framework's own packages are tested with. */
const TOOL_VERSIONS = {
  typescript: '~6.0.3',
  tsx: '^4.20.0',
  mocha: '^12.0.0',
  chai: '^6.2.0',
  typesMocha: '^10.0.10',
  typesChai: '^5.2.3',
  typesAwsLambda: '^8.10.164',
  constructs: '^10.4.0',
};

/**
 * A framework app: a projen project type that owns the project's files. `.projenrc.ts` is the one place to change
 * them: `fw.config.ts` and `config/*.ts` are generated from its options (so an intent added there reaches the app),
 * `package.json` gets the `dev`, `deploy`, `synth`, `test`, `g` and `migrate` tasks, and the template's routes and
 * tests are written once, then belong to the user.
 *
 * @pjid framework-app
 */
export class FrameworkApp extends typescript.TypeScriptProject {
  /** Version of `@framework/*` packages this project type generates projects for (its own version). */
  public static readonly VERSION: string = readOwnVersion();

  /** Project name (prefix of every deployed name). */
  public readonly appName: string;
  /** Cloud region. */
  public readonly region: string;
  /** The template the project started from. */
  public readonly template: FrameworkTemplate;
  /** Version of the `@framework/*` packages. */
  public readonly frameworkVersion: string;

  // Each generated file is a component of src/components/; this class checks the options and collects the
  // declarations those components render at synth.
  private readonly intents = new AppIntents();
  private readonly samples: SampleFiles;

  constructor(options: FrameworkAppOptions) {
    const template = options.template ?? FrameworkTemplate.API;
    const definition = TEMPLATES[template];
    if (!definition) {
      throw new FrameworkAppError(ERROR_CODES.unknownTemplate, `template "${String(template)}" does not exist; use one of ${Object.values(FrameworkTemplate).join(', ')}`);
    }
    checkPattern('name', options.name, PROJECT_NAME, 'a project name of 2 to 32 lowercase letters, digits or "-", starting with a letter (it prefixes every deployed name)');
    const region = options.region ?? 'us-east-1';
    checkPattern('region', region, REGION, 'a region such as "eu-west-1"');
    const frameworkVersion = options.frameworkVersion ?? FrameworkApp.VERSION;
    const fw = (pkg: string) => `@framework/${pkg}@${frameworkVersion}`;

    super({
      // `projen new` passes how it was called under this key; projen needs it to write .projenrc.ts.
      ...pick(options, PROJEN_NEW_KEY),
      name: options.name,
      outdir: options.outdir,
      defaultReleaseBranch: 'main',
      packageManager: javascript.NodePackageManager.NPM,
      projenVersion: options.projenVersion ?? readProjenVersion(),
      projenrcTs: true,
      projenrcTsOptions: { runner: typescript.TypeScriptRunner.tsx() },
      typescriptVersion: TOOL_VERSIONS.typescript,
      minNodeVersion: '20.0.0',
      srcdir: 'src',
      testdir: 'tests',
      libdir: 'lib',
      entrypoint: '',
      sampleCode: false,
      jest: false,
      eslint: false,
      prettier: false,
      github: false,
      release: false,
      buildWorkflow: false,
      depsUpgrade: false,
      pullRequestTemplate: false,
      package: false,
      licensed: false,
      disableTsconfigDev: true,
      tsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: javascript.TypeScriptModuleResolution.NODE_NEXT,
          lib: ['ES2023'],
          types: ['node', 'mocha'],
          noEmit: true,
          declaration: false,
          strict: true,
          esModuleInterop: true,
          skipLibCheck: true,
          resolveJsonModule: true,
          noUnusedLocals: false,
          noUnusedParameters: false,
          isolatedModules: true,
          inlineSourceMap: false,
          inlineSources: false,
        },
        include: ['fw.config.ts', 'config/**/*.ts', 'src/**/*.ts', 'tests/**/*.ts', '.projenrc.ts', AppTypes.INCLUDE],
      },
      deps: [fw('runtime'), fw('core'), ...(options.deps ?? [])],
      devDeps: [
        fw('cli'),
        fw('projen'),
        // The templates' tests start the app with @framework/testing (startApp, app.as({ roles }), the clock).
        fw('testing'),
        `constructs@${TOOL_VERSIONS.constructs}`,
        `tsx@${TOOL_VERSIONS.tsx}`,
        `mocha@${TOOL_VERSIONS.mocha}`,
        `chai@${TOOL_VERSIONS.chai}`,
        `@types/mocha@${TOOL_VERSIONS.typesMocha}`,
        `@types/chai@${TOOL_VERSIONS.typesChai}`,
        `@types/aws-lambda@${TOOL_VERSIONS.typesAwsLambda}`,
        ...definition.devDeps,
        ...(options.devDeps ?? []).filter((d) => !d.startsWith('@framework/projen')),
      ],
      gitignore: ['.fw/', 'cdk.out/', '*.tsbuildinfo'],
      readme: { contents: sampleReadme(options.name, definition.description) },
    });

    this.appName = options.name;
    this.region = region;
    this.template = template;
    this.frameworkVersion = frameworkVersion;
    this.samples = new SampleFiles(this);
    if (options.account !== undefined) checkPattern('account', options.account, /^\d{12}$/, 'a 12-digit account id');

    // ESM: route files import the framework's ESM packages, and `fw` loads them as modules.
    this.package.addField('type', 'module');
    if (options.frameworkRegistry) {
      checkPattern('frameworkRegistry', options.frameworkRegistry, /^https?:\/\/\S+$/, 'a registry URL such as "https://registry.example.com/"');
      this.npmrc.addRegistry(options.frameworkRegistry, '@framework');
    }

    for (const stage of options.stages ?? DEFAULT_STAGES) this.addStage(stage);

    // The template first, then the options: the template's intents are a starting point the options extend.
    for (const scope of [...definition.scopes, ...(options.scopes ?? [])]) this.addScope(scope);
    for (const client of [...definition.appClients, ...(options.appClients ?? [])]) this.addAppClient(client);
    for (const role of [...definition.roles, ...(options.roles ?? [])]) this.addRole(role);
    // The template's files before its intents, so an intent's sample file never replaces one of the template's.
    for (const [file, source] of templateFiles(template)) this.samples.add(file, { sourcePath: source });
    const fromTemplate: InfrastructureIntents = { auth: definition.auth, databases: [...definition.databases], storage: [...definition.storage], queues: [...definition.queues] };
    // Kind by kind, in INTENT_KINDS' order: the template's then the options' (an option's `auth` replaces the template's).
    for (const kind of INTENT_KIND_NAMES) {
      this.declareAll(kind, fromTemplate);
      this.declareAll(kind, options);
    }
    if (options.billing) this.intents.billing = options.billing;

    // The app is type-checked, never emitted (esbuild bundles each handler), and its TypeScript lives outside src/
    // too (fw.config.ts, config/, tests/), so no rootDir/outDir.
    this.tsconfig?.file.addDeletionOverride('compilerOptions.rootDir');
    this.tsconfig?.file.addDeletionOverride('compilerOptions.outDir');
    this.compileTask.reset('tsc');
    new FrameworkTasks(this);
    new MochaConfig(this);
    new FwConfigFile(this, this.intents);
    new BaseConfigFile(this, { name: options.name, region, account: options.account });
    new SecurityConfigFile(this, this.intents);
    new AppTypes(this);
    // Stage files are registered at synth so stages added after construction get theirs too.
  }

  /** Adds a stage (`config/<name>.ts`). */
  public addStage(stage: Stage): void {
    checkPattern('stages[].name', stage.name, STAGE_NAME, 'a stage name of 1 to 20 lowercase letters, digits or "-", starting with a letter');
    if (!Object.values(Preset).includes(stage.preset)) throw invalid('stages[].preset', stage.preset, `one of ${Object.values(Preset).join(', ')}`);
    this.intents.add('stages', this.intents.stages, stage, stage.name, 'name');
  }

  /** Adds an OAuth scope. */
  public addScope(scope: Scope): void {
    this.intents.add('scopes', this.intents.scopes, scope, scope.name, 'name');
  }

  /** Adds an app client. */
  public addAppClient(client: AppClient): void {
    this.intents.add('appClients', this.intents.appClients, client, client.name, 'name');
  }

  /** Adds a role (`security.roles`): the scopes its holders get. */
  public addRole(role: Role): void {
    this.intents.add('roles', this.intents.roles, role, role.name, 'name');
  }

  /**
   * Declares infrastructure intents, any kinds at once: each list's intents are added, a single intent (`auth`, `ws`,
   * `notify`) replaces the one declared before. Every kind, including one added after this class's `add*` methods.
   */
  public addIntents(intents: InfrastructureIntents): void {
    for (const kind of INTENT_KIND_NAMES) this.declareAll(kind, intents);
  }

  /** Sets the identity provider intent (replaces the template's). */
  public addAuth(auth: AuthIntent): void {
    this.declare('auth', auth);
  }

  /** Adds a queue; writes a sample consumer `src/queues/<id>.ts` once when there is none. */
  public addQueue(queue: QueueIntent): void {
    this.declare('queues', queue);
  }

  /** Adds a scheduled task; writes a sample `src/crons/<id>.ts` once when there is none. */
  public addSchedule(schedule: ScheduleIntent): void {
    this.declare('schedules', schedule);
  }

  /** Adds a standalone function; writes a sample `src/functions/<id>.ts` once when there is none. */
  public addFunction(fn: FunctionIntent): void {
    this.declare('functions', fn);
  }

  /** Adds a PostgreSQL database (and the `@framework/data` dependency). */
  public addDatabase(database: DatabaseIntent): void {
    this.declare('databases', database);
  }

  /** Adds an object-storage bucket (and the `@framework/storage` dependency). */
  public addStorage(bucket: StorageIntent): void {
    this.declare('storage', bucket);
  }

  /** Adds a cache. */
  public addCache(cache: CacheIntent): void {
    this.declare('caches', cache);
  }

  /** One intent: kept for the config files, with its kind's sample file and package dependency. */
  private declare<K extends IntentKindName>(kind: K, intent: IntentOf<K>): void {
    const entry = intentKind(kind);
    this.intents.declare(kind, intent);
    const sample = entry.sample?.(intent);
    if (sample) this.samples.add(sample.path, { contents: sample.contents });
    if (entry.dependency) this.addDeps(`@framework/${entry.dependency}@${this.frameworkVersion}`);
  }

  /** Every intent of one kind in `intents`. */
  private declareAll<K extends IntentKindName>(kind: K, intents: InfrastructureIntents): void {
    for (const intent of intentsOf(kind, intents)) this.declare(kind, intent);
  }

  public preSynthesize(): void {
    super.preSynthesize();
    // Here rather than in a component's preSynthesize: the project's runs first, so the files are known to every
    // component (projen's .gitignore lists them in the order they were added).
    for (const stage of this.intents.stages) {
      if (!this.tryFindFile(`config/${stage.name}.ts`)) new StageConfigFile(this, stage);
    }
  }
}

/** The intents of one kind in `intents`, as a list (a single intent is a list of one). */
function intentsOf<K extends IntentKindName>(kind: K, intents: InfrastructureIntents): ReadonlyArray<IntentOf<K>> {
  const value = intents[kind] as IntentOf<K> | ReadonlyArray<IntentOf<K>> | undefined;
  if (value === undefined) return [];
  return intentKind(kind).many ? (value as ReadonlyArray<IntentOf<K>>) : [value as IntentOf<K>];
}

function pick(options: object, key: string): Record<string, unknown> {
  const value = (options as Record<string, unknown>)[key];
  return value === undefined ? {} : { [key]: value };
}

function checkPattern(option: string, value: unknown, pattern: RegExp, expected: string): void {
  if (typeof value !== 'string' || !pattern.test(value)) throw invalid(option, value, expected);
}

function invalid(option: string, value: unknown, expected: string): FrameworkAppError {
  return new FrameworkAppError(ERROR_CODES.invalidOption, `FrameworkApp option "${option}": got ${JSON.stringify(value)}, expected ${expected}. Fix it in .projenrc.ts`);
}

function readOwnVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function readProjenVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(require.resolve('projen/package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return '0.103.25';
  }
}
