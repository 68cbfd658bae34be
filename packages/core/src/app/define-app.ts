import * as path from 'node:path';
import type * as t from 'io-ts';
import * as c from '../config/codec.js';
import { STAGE_NAME, type BaseConfig } from '../config/base.js';
import type { EnvironmentConfig } from '../config/environment.js';
import { infrastructureCodec, type Infrastructure } from '../config/intents.js';
import { reportErrors } from '../config/report.js';
import { checkLayers } from '../config/resolve.js';
import type { SecurityConfig } from '../config/security.js';
import { discoverRoutes } from '../discovery/routes.js';
import { discoverFlat, discoverFunctions } from '../discovery/units.js';
import { envToken } from '../environment/variables.js';
import { ConfigError, type ConfigProblem } from '../errors.js';
import { standaloneFunctionName } from '../naming/unit-names.js';
import type { AppDefinition } from './app-definition.js';
import { buildStage, type CheckedApp } from './build-stage.js';

/** Options of `defineApp` (`fw.config.ts`). */
export interface AppOptions {
  readonly base: BaseConfig;
  readonly security: SecurityConfig;
  /** Stage name → environment, e.g. `{ dev, prod }`. */
  readonly envs: Readonly<Record<string, EnvironmentConfig>>;
  /** @default 'src/routes' */
  readonly routesDir?: string;
  /** @default 'src/functions' */
  readonly functionsDir?: string;
  /** @default {} */
  readonly infrastructure?: Infrastructure;
  /** Project folder the directories are relative to. @default - `FW_PROJECT_ROOT`, else the current directory */
  readonly rootDir?: string;
  /** Stage to build. @default - `FW_STAGE`, else 'dev' */
  readonly stage?: string;
}

const REQUIRED_OPTIONS = ['base', 'security', 'envs'] as const;
const KNOWN_OPTIONS = new Set<string>([...REQUIRED_OPTIONS, 'routesDir', 'functionsDir', 'infrastructure', 'rootDir', 'stage']);
const relativeDir = c.pattern('a folder relative to the project, without ".."', /^(?!\/)(?!(.*\/)?\.\.(\/|$))[\w.@/-]+$/);
const stageName = c.pattern('a stage name of 1 to 20 lowercase letters, digits or "-", starting with a letter', STAGE_NAME);

function validate<A>(codec: c.Codec<A>, value: unknown, root: string, problems: ConfigProblem[]): A | undefined {
  const result = codec.validate(value, [{ key: '', type: codec as t.Decoder<unknown, A>, actual: value }]);
  if (result._tag === 'Left') {
    problems.push(...reportErrors(result.left, root));
    return undefined;
  }
  return result.right;
}

/**
 * Validates the whole configuration and the handler files at once, and returns the app model for the current stage.
 * Throws one `ConfigError` listing every problem (path, value found, what is expected); never a TypeError.
 */
export function defineApp(options: AppOptions): AppDefinition {
  const problems: ConfigProblem[] = [];
  const input: unknown = options;
  if (!c.isPlainObject(input)) {
    throw new ConfigError([{ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: 'defineApp', message: `expected an options object { base, security, envs }, got ${c.describeValue(input)}` }]);
  }
  for (const key of REQUIRED_OPTIONS) {
    if (input[key] === undefined) problems.push({ code: 'FW_ERR_CONFIG_MISSING_FIELD', path: key, message: `is required: defineApp needs { base, security, envs }` });
  }
  for (const key of Object.keys(input)) {
    if (!KNOWN_OPTIONS.has(key)) problems.push({ code: 'FW_ERR_CONFIG_UNKNOWN_FIELD', path: key, message: `is not an option of defineApp (options: ${[...KNOWN_OPTIONS].join(', ')})` });
  }

  // The three layers; each stage's environment under `envs.<stage>`.
  if (input.base !== undefined || input.security !== undefined) {
    const layerProblems = checkLayers(input.base, input.security, { preset: 'free' }, { base: 'base', security: 'security', env: 'envs' });
    problems.push(...layerProblems.filter((p) => (input.base !== undefined || !p.path.startsWith('base')) && (input.security !== undefined || !p.path.startsWith('security'))));
  }
  const stages: string[] = [];
  if (input.envs !== undefined) {
    if (!c.isPlainObject(input.envs) || Object.keys(input.envs).length === 0) {
      problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: 'envs', message: `expected a map of stage name to environment config such as { dev: { preset: 'free' } }, got ${c.describeValue(input.envs)}` });
    } else {
      for (const [stage, env] of Object.entries(input.envs)) {
        if (!STAGE_NAME.test(stage)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `envs.${stage}`, message: `stage name ${JSON.stringify(stage)}: expected ${stageName.name}` });
        stages.push(stage);
        problems.push(...checkLayers({ name: 'ok', region: 'us-east-1' }, { scopes: {} }, env, { base: '-', security: '-', env: `envs.${stage}` }));
      }
    }
  }
  const routesDir = (input.routesDir === undefined ? 'src/routes' : validate(relativeDir, input.routesDir, 'routesDir', problems)) ?? 'src/routes';
  const functionsDir = (input.functionsDir === undefined ? 'src/functions' : validate(relativeDir, input.functionsDir, 'functionsDir', problems)) ?? 'src/functions';
  const infrastructure = (input.infrastructure === undefined ? {} : validate(infrastructureCodec, input.infrastructure, 'infrastructure', problems)) ?? {};
  const rootDir = path.resolve(typeof input.rootDir === 'string' ? input.rootDir : process.env.FW_PROJECT_ROOT ?? process.cwd());
  const stageInput = input.stage ?? process.env.FW_STAGE ?? 'dev';
  const stage = validate(stageName, stageInput, 'stage', problems);
  if (stage && stages.length && !stages.includes(stage)) {
    problems.push({
      code: 'FW_ERR_CONFIG_UNKNOWN_STAGE',
      path: `envs.${stage}`,
      message: `stage "${stage}" (from ${input.stage !== undefined ? 'the stage option' : process.env.FW_STAGE ? 'FW_STAGE' : 'the default'}) has no environment; declared stages: ${stages.join(', ')}. Add envs.${stage} or pick one of those`,
    });
  }

  problems.push(...checkIntentIds(infrastructure));

  // Files on disk, checked against the intents.
  const discovered = discoverRoutes(rootDir, routesDir);
  const fnFiles = discoverFunctions(rootDir, functionsDir);
  const queueFiles = discoverFlat(rootDir, 'src/queues', 'queue consumer');
  const cronFiles = discoverFlat(rootDir, 'src/crons', 'cron');
  problems.push(...discovered.problems, ...fnFiles.problems, ...queueFiles.problems, ...cronFiles.problems);
  problems.push(...matchIntents('functions', infrastructure.functions ?? [], fnFiles.units, functionsDir, false));
  problems.push(...matchIntents('queues', infrastructure.queues ?? [], queueFiles.units, 'src/queues', true));
  problems.push(...matchIntents('schedules', infrastructure.schedules ?? [], cronFiles.units, 'src/crons', true));
  problems.push(...checkFunctionNameClashes(fnFiles.units));
  for (const [kind, list] of Object.entries({ storage: infrastructure.storage ?? [] })) {
    list.forEach((bucket, i) =>
      (bucket.notifications ?? []).forEach((n, j) => {
        const at = `infrastructure.${kind}[${i}].notifications[${j}]`;
        if ((n.queue === undefined) === (n.function === undefined)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: at, message: 'expected exactly one of "queue" or "function"' });
        if (n.queue !== undefined && !(infrastructure.queues ?? []).some((q) => q.id === n.queue)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.queue`, message: `no queue intent has id ${JSON.stringify(n.queue)}` });
        if (n.function !== undefined && !fnFiles.units.some((f) => f.id === n.function)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.function`, message: `no function file ${functionsDir}/${n.function}.ts` });
      }),
    );
  }

  if (problems.length) throw new ConfigError(problems);

  const checked: CheckedApp = {
    options: input as unknown as AppOptions,
    rootDir,
    stages,
    infrastructure,
    directories: { routes: routesDir, functions: functionsDir, queues: 'src/queues', crons: 'src/crons', lib: 'src/lib' },
    routes: discovered.routes,
    functionFiles: fnFiles.units,
    queueFiles: queueFiles.units,
    cronFiles: cronFiles.units,
  };
  return buildStage(checked, stage!);
}

function checkIntentIds(infrastructure: Infrastructure): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const kinds = ['functions', 'queues', 'schedules', 'databases', 'storage', 'caches'] as const;
  for (const kind of kinds) {
    const ids = new Map<string, number>();
    const tokens = new Map<string, string>();
    (infrastructure[kind] ?? []).forEach((intent, index) => {
      const previous = ids.get(intent.id);
      if (previous !== undefined) {
        problems.push({ code: 'FW_ERR_CONFIG_DUPLICATE_ID', path: `infrastructure.${kind}[${index}].id`, message: `id ${JSON.stringify(intent.id)} is already used by infrastructure.${kind}[${previous}]; ids must be unique` });
        return;
      }
      ids.set(intent.id, index);
      const token = envToken(intent.id);
      const clash = tokens.get(token);
      if (clash !== undefined && kind !== 'functions' && kind !== 'schedules') {
        problems.push({ code: 'FW_ERR_CONFIG_NAME_CLASH', path: `infrastructure.${kind}[${index}].id`, message: `ids ${JSON.stringify(clash)} and ${JSON.stringify(intent.id)} both become the variable token ${token}; rename one` });
      }
      tokens.set(token, intent.id);
    });
  }
  return problems;
}

function matchIntents(kind: 'functions' | 'queues' | 'schedules', intents: readonly { id: string }[], files: readonly { id: string; file: string }[], dir: string, fileNeedsIntent: boolean): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const fileIds = new Set(files.map((f) => f.id));
  intents.forEach((intent, index) => {
    if (!fileIds.has(intent.id)) {
      problems.push({ code: 'FW_ERR_INTENT_WITHOUT_FILE', path: `infrastructure.${kind}[${index}]`, message: `${kind.replace(/s$/, '')} "${intent.id}" has no handler file: create ${dir}/${intent.id}.ts exporting main` });
    }
  });
  if (fileNeedsIntent) {
    const intentIds = new Set(intents.map((i) => i.id));
    for (const file of files) {
      if (!intentIds.has(file.id)) {
        const example = kind === 'queues' ? `{ id: '${file.id}' }` : `{ id: '${file.id}', schedule: { rate: '1 hour' } }`;
        problems.push({ code: 'FW_ERR_FILE_WITHOUT_INTENT', path: file.file, message: `no ${kind.replace(/s$/, '')} intent declares it: add ${example} to infrastructure.${kind}, or remove the file` });
      }
    }
  }
  return problems;
}

function checkFunctionNameClashes(units: readonly { id: string; file: string }[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const byName = new Map<string, string>();
  for (const unit of units) {
    const name = standaloneFunctionName('p', 's', unit.id);
    const other = byName.get(name);
    if (other) problems.push({ code: 'FW_ERR_CONFIG_NAME_CLASH', path: unit.file, message: `becomes the same function name as ${other} ("/" turns into "-"); rename one of them` });
    else byName.set(name, unit.file);
  }
  return problems;
}
