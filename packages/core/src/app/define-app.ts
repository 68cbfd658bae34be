import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as t from 'io-ts';
import * as c from '../config/codec.js';
import { STAGE_NAME } from '../config/base.js';
import { INTENT_ID, infrastructureCodec } from '../config/intents.js';
import { billingCodec, checkBilling, resolveBilling } from '../config/billing.js';
import { checkKinds, handlerFolderKinds, intentListKinds } from '../intents/registry.js';
import { joinPath, reportErrors } from '../config/report.js';
import { checkSeededUsers } from '../config/environment.js';
import { checkLayers } from '../config/resolve.js';
import { discoverRoutes } from '../discovery/routes.js';
import { discoverFlat, discoverFunctions } from '../discovery/units.js';
import { ENV, envToken } from '../environment/variables.js';
import { ConfigError, type ConfigProblem } from '../errors.js';
import { standaloneFunctionName } from '../naming/unit-names.js';
import { PRESETS, type PresetName } from '../presets/presets.js';
import type { AppDefinition } from './app-definition.js';
import type { AppOptions } from './app-options.js';
import { buildStage, type CheckedApp } from './build-stage.js';

export type { AppOptions } from './app-options.js';

const REQUIRED_OPTIONS = ['base', 'security', 'envs'] as const;
const KNOWN_OPTIONS = new Set<string>([...REQUIRED_OPTIONS, 'routesDir', 'functionsDir', 'infrastructure', 'billing', 'rootDir', 'stage']);
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
    if (KNOWN_OPTIONS.has(key)) continue;
    const hint = c.closestName(key, [...KNOWN_OPTIONS]);
    problems.push({ code: 'FW_ERR_CONFIG_UNKNOWN_FIELD', path: joinPath('', key), message: `is not an option of defineApp.${hint ? ` Did you mean "${hint}"?` : ''} (options: ${[...KNOWN_OPTIONS].join(', ')})` });
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
        if (!STAGE_NAME.test(stage)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: joinPath('envs', stage), message: `stage name ${JSON.stringify(stage)}: expected ${stageName.name}` });
        stages.push(stage);
        problems.push(...checkLayers({ name: 'ok', region: 'us-east-1' }, { scopes: {} }, env, { base: '-', security: '-', env: joinPath('envs', stage) }));
        const roles = (input.security as { roles?: unknown } | undefined)?.roles;
        problems.push(...checkSeededUsers(env, c.isPlainObject(roles) ? roles : {}, joinPath('envs', stage)));
      }
    }
  }
  // Normalized (`./src/routes/` → `src/routes`) because file paths in the model are built from them.
  const routesDir = normalizeDir((input.routesDir === undefined ? 'src/routes' : validate(relativeDir, input.routesDir, 'routesDir', problems)) ?? 'src/routes');
  const functionsDir = normalizeDir((input.functionsDir === undefined ? 'src/functions' : validate(relativeDir, input.functionsDir, 'functionsDir', problems)) ?? 'src/functions');
  const infrastructure = (input.infrastructure === undefined ? {} : validate(infrastructureCodec, input.infrastructure, 'infrastructure', problems)) ?? {};
  const billing = input.billing === undefined ? undefined : validate(billingCodec, input.billing, 'billing', problems);
  if (billing) problems.push(...checkBilling(billing));
  // When some intent is invalid, the valid-looking ids of the raw input still take part in the checks below, so a
  // typo in one field does not also report "file without intent" for every queue and cron of the app.
  const intentIds = idsOf(input.infrastructure);
  if (input.rootDir !== undefined && !(typeof input.rootDir === 'string' && input.rootDir.length > 0 && !input.rootDir.includes('\0'))) {
    problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: 'rootDir', message: `expected the project folder as a path string, got ${c.describeValue(input.rootDir)}` });
  }
  const rootDir = path.resolve(typeof input.rootDir === 'string' && !input.rootDir.includes('\0') ? input.rootDir : process.env[ENV.projectRoot] ?? process.cwd());
  const stageInput = input.stage ?? process.env[ENV.stage] ?? 'dev';
  const stage = validate(stageName, stageInput, input.stage !== undefined ? 'stage' : process.env[ENV.stage] ? 'FW_STAGE' : 'stage', problems);
  if (stage && stages.length && !stages.includes(stage)) {
    problems.push({
      code: 'FW_ERR_CONFIG_UNKNOWN_STAGE',
      path: joinPath('envs', stage),
      message: `stage "${stage}" (from ${input.stage !== undefined ? 'the stage option' : process.env[ENV.stage] ? 'FW_STAGE' : 'the default'}) has no environment; declared stages: ${stages.join(', ')}. Add envs.${stage} or pick one of those`,
    });
  }

  problems.push(...checkIntentIds(intentIds));

  // Files on disk, checked against the intents. A directory option that names a file is reported, not thrown.
  // Without a project folder the files are not looked at: every intent would only be reported as missing its file.
  const badRootDir = problems.some((p) => p.path === 'rootDir');
  const rootProblem = badRootDir ? undefined : checkProjectFolder(rootDir, input.rootDir !== undefined ? 'rootDir' : process.env[ENV.projectRoot] ? 'FW_PROJECT_ROOT' : 'rootDir');
  if (rootProblem) problems.push(rootProblem);
  const skipFiles = badRootDir || rootProblem !== undefined;
  const readable = (dir: string, option: string) => {
    if (skipFiles) return false;
    const problem = checkDirectory(rootDir, dir, option);
    if (problem) problems.push(problem);
    return problem === undefined;
  };
  const empty = { routes: [], units: [], problems: [] };
  const discovered = readable(routesDir, 'routesDir') ? discoverRoutes(rootDir, routesDir) : empty;
  const fnFiles = readable(functionsDir, 'functionsDir') ? discoverFunctions(rootDir, functionsDir) : empty;
  // Each kind with a handler folder (queues, schedules): its files, by the kind's key.
  const folderFiles = HANDLER_FOLDER_KINDS.map((kind) => ({ kind, found: readable(kind.dir, kind.dir) ? discoverFlat(rootDir, kind.dir, kind.what) : empty }));
  problems.push(...discovered.problems, ...fnFiles.problems, ...folderFiles.flatMap(({ found }) => found.problems));
  if (!skipFiles) {
    problems.push(...matchIntents('functions', intentIds.functions, fnFiles.units, functionsDir));
    for (const { kind, found } of folderFiles) problems.push(...matchIntents(kind.key, intentIds[kind.key] ?? [], found.units, kind.dir, kind.example));
  }
  problems.push(...checkFunctionNameClashes(fnFiles.units));
  // Each kind's own checks (a kind naming other units: storage's upload notification targets, notify's queue, cron
  // and function).
  const byConfigKey = infrastructure as Readonly<Record<string, unknown>>;
  const stageFunctionTimeouts = c.isPlainObject(input.envs) ? Object.entries(input.envs).map(([name, env]) => ({ stage: name, timeout: stageFunctionTimeout(env) })) : [];
  problems.push(...checkKinds(byConfigKey, { intentIds: (configKey) => intentIdsOf(byConfigKey[configKey]), functionFiles: fnFiles.units, functionsDir, stageFunctionTimeouts }));

  if (problems.length) throw new ConfigError(problems);

  const checked: CheckedApp = {
    options: input as unknown as AppOptions,
    rootDir,
    stages,
    infrastructure,
    ...(billing ? { billing: resolveBilling(billing) } : {}),
    directories: { routes: routesDir, functions: functionsDir, queues: 'src/queues', crons: 'src/crons', lib: 'src/lib' },
    routes: discovered.routes,
    handlerFiles: { functions: fnFiles.units, ...Object.fromEntries(folderFiles.map(({ kind, found }) => [kind.key, found.units])) },
  };
  return buildStage(checked, stage!);
}

/** The ids of a decoded list of intents (`[{ id }, ...]`); none for anything else. */
function intentIdsOf(intents: unknown): string[] {
  return Array.isArray(intents) ? intents.flatMap((intent: { id?: unknown }) => (typeof intent?.id === 'string' ? [intent.id] : [])) : [];
}

function normalizeDir(dir: string): string {
  return path.posix.normalize(dir).replace(/\/+$/, '') || '.';
}

/** The kinds whose intents are a list with ids (from the registry): functions, queues, schedules, databases, ... */
const INTENT_KINDS = intentListKinds();
/** The kinds whose intents each have a handler file in one folder (from the registry): queues, schedules. */
const HANDLER_FOLDER_KINDS = handlerFolderKinds();

/** An intent's id and position, all the cross-checks need. */
interface IntentRef {
  readonly id: string;
  readonly index: number;
}
/** By key under `infrastructure`; `functions` is always there. */
type IntentIds = Readonly<Record<string, readonly IntentRef[]>> & { readonly functions: readonly IntentRef[] };

/** Ids of the intents of each kind, read from the raw input: only ids that are valid take part. */
function idsOf(infrastructure: unknown): IntentIds {
  const out: Record<string, IntentRef[]> & { functions: IntentRef[] } = { functions: [] };
  for (const { key, ids } of INTENT_KINDS) {
    const list = c.isPlainObject(infrastructure) ? infrastructure[key] : undefined;
    const refs: IntentRef[] = (out[key] = []);
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, index) => {
      const valid = (id: unknown): id is string => typeof id === 'string' && (ids === 'path' ? id.split('/').every((part) => INTENT_ID.test(part)) : INTENT_ID.test(id));
      if (c.isPlainObject(item) && valid(item.id)) {
        refs.push({ id: item.id, index });
      }
    });
  }
  return out;
}

/** The project folder must exist: without it every intent would be reported as missing its file. */
function checkProjectFolder(rootDir: string, option: string): ConfigProblem | undefined {
  try {
    if (fs.statSync(rootDir).isDirectory()) return undefined;
    return { code: 'FW_ERR_CONFIG_INVALID_VALUE', path: option, message: `expected the project folder, but ${rootDir} is a file` };
  } catch (error) {
    return { code: 'FW_ERR_CONFIG_INVALID_VALUE', path: option, message: `expected the project folder, but ${rootDir} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}

/** A directory option that exists but is not a readable folder; a missing folder simply holds no handlers. */
function checkDirectory(rootDir: string, dir: string, option: string): ConfigProblem | undefined {
  try {
    if (fs.statSync(path.join(rootDir, dir)).isDirectory()) {
      fs.readdirSync(path.join(rootDir, dir));
      return undefined;
    }
    return { code: 'FW_ERR_CONFIG_INVALID_VALUE', path: option, message: `expected a folder, but ${dir} is a file; point it at a folder or move the file` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { code: 'FW_ERR_CONFIG_INVALID_VALUE', path: option, message: `cannot read ${dir} (${code ?? String(error)}); check its permissions` };
  }
}

/** The function timeout of a (possibly invalid) environment config, when it can be known. */
function stageFunctionTimeout(env: unknown): number | undefined {
  if (!c.isPlainObject(env) || typeof env.preset !== 'string' || !Object.hasOwn(PRESETS, env.preset)) return undefined;
  const overrides = c.isPlainObject(env.overrides) && c.isPlainObject(env.overrides.functions) ? env.overrides.functions : {};
  const timeout = overrides.timeout ?? PRESETS[env.preset as PresetName].functions.timeout;
  return typeof timeout === 'number' ? timeout : undefined;
}

function checkIntentIds(infrastructure: IntentIds): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const { key: kind, tokens: sharesTokens } of INTENT_KINDS) {
    const ids = new Map<string, number>();
    const tokens = new Map<string, string>();
    (infrastructure[kind] ?? []).forEach((intent) => {
      const index = intent.index;
      const previous = ids.get(intent.id);
      if (previous !== undefined) {
        problems.push({ code: 'FW_ERR_CONFIG_DUPLICATE_ID', path: `infrastructure.${kind}[${index}].id`, message: `id ${JSON.stringify(intent.id)} is already used by infrastructure.${kind}[${previous}]; ids must be unique` });
        return;
      }
      ids.set(intent.id, index);
      const token = envToken(intent.id);
      const clash = tokens.get(token);
      if (clash !== undefined && sharesTokens) {
        problems.push({ code: 'FW_ERR_CONFIG_NAME_CLASH', path: `infrastructure.${kind}[${index}].id`, message: `ids ${JSON.stringify(clash)} and ${JSON.stringify(intent.id)} both become the variable token ${token}; rename one` });
      }
      tokens.set(token, intent.id);
    });
  }
  return problems;
}

/**
 * Every intent of a kind has its handler file; with `example` (a kind with a handler folder), every file also has its
 * intent (a function file alone is a function).
 */
function matchIntents(kind: string, intents: readonly IntentRef[], files: readonly { id: string; file: string }[], dir: string, example?: (id: string) => string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const fileIds = new Set(files.map((f) => f.id));
  intents.forEach((intent) => {
    if (!fileIds.has(intent.id)) {
      problems.push({ code: 'FW_ERR_INTENT_WITHOUT_FILE', path: `infrastructure.${kind}[${intent.index}]`, message: `${kind.replace(/s$/, '')} "${intent.id}" has no handler file: create ${dir}/${intent.id}.ts exporting main` });
    }
  });
  if (example) {
    const intentIds = new Set(intents.map((i) => i.id));
    for (const file of files) {
      if (!intentIds.has(file.id)) {
        problems.push({ code: 'FW_ERR_FILE_WITHOUT_INTENT', path: file.file, message: `no ${kind.replace(/s$/, '')} intent declares it: add ${example(file.id)} to infrastructure.${kind}, or remove the file` });
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
