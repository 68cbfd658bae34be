import type { DiscoveredRoute } from '../discovery/routes.js';
import type { DiscoveredUnit } from '../discovery/units.js';
import { DEFAULT_POSTGRES_VERSION, type Infrastructure } from '../config/intents.js';
import { layer } from '../config/resolve.js';
import { ConfigError } from '../errors.js';
import { bucketEnv, cacheEnv, databaseEnv, queueEnv } from '../environment/variables.js';
import {
  authDomainPrefixBase,
  cacheName,
  cronFunctionName,
  cronRuleName,
  deadLetterQueueName,
  disambiguatedRouteFunctionName,
  migrationFunctionName,
  queueFunctionName,
  queueName,
  routeFunctionName,
  standaloneFunctionName,
  userPoolName,
} from '../naming/unit-names.js';
import { parseSchedule } from '../schedule/schedule-expression.js';
import type { AppDefinition, CronDefinition, FunctionUnit, QueueDefinition, RouteDefinition, StandaloneFunctionDefinition } from './app-definition.js';
import type { AppOptions } from './define-app.js';
import { buildEnvironment } from './app-environment.js';

/** Everything `defineApp` validated and discovered; stage-independent. */
export interface CheckedApp {
  readonly options: AppOptions;
  readonly rootDir: string;
  readonly stages: readonly string[];
  readonly infrastructure: Infrastructure;
  readonly directories: AppDefinition['directories'];
  readonly routes: readonly DiscoveredRoute[];
  readonly functionFiles: readonly DiscoveredUnit[];
  readonly queueFiles: readonly DiscoveredUnit[];
  readonly cronFiles: readonly DiscoveredUnit[];
}

/** The gateway gives up on an integration after 30 seconds, so a route function never needs longer. */
export const MAX_ROUTE_TIMEOUT = 30;

/** Builds the app model for one stage: names, sizes (intent, else preset) and variables. */
export function buildStage(app: CheckedApp, stage: string): AppDefinition {
  // `hasOwn`: a stage called `constructor` or `toString` must not find Object.prototype's members.
  const env = Object.hasOwn(app.options.envs, stage) ? app.options.envs[stage] : undefined;
  if (!env) {
    throw new ConfigError([{ code: 'FW_ERR_CONFIG_UNKNOWN_STAGE', path: `envs.${stage}`, message: `stage "${stage}" has no environment; declared stages: ${app.stages.join(', ')}` }]);
  }
  const config = layer(app.options.base, app.options.security, env);
  const { project } = config;
  const defaults = config.settings.functions;
  const infra = app.infrastructure;

  // Route names: readable, with a hash added only to the ones whose readable names collide.
  const readable = app.routes.map((r) => routeFunctionName(project, stage, r.method, r.path));
  const counts = new Map<string, number>();
  readable.forEach((n) => counts.set(n, (counts.get(n) ?? 0) + 1));
  const routes: RouteDefinition[] = app.routes.map((r, i) => ({
    kind: 'route',
    id: r.routeKey,
    file: r.file,
    method: r.method,
    path: r.path,
    routeKey: r.routeKey,
    pathParams: r.pathParams,
    functionName: counts.get(readable[i]!)! > 1 ? disambiguatedRouteFunctionName(project, stage, r.method, r.path) : readable[i]!,
    memorySize: defaults.memorySize,
    timeout: Math.min(defaults.timeout, MAX_ROUTE_TIMEOUT),
    environment: {},
  }));

  const functions: StandaloneFunctionDefinition[] = app.functionFiles.map((f) => {
    const intent = infra.functions?.find((i) => i.id === f.id);
    return {
      kind: 'function',
      id: f.id,
      file: f.file,
      functionName: standaloneFunctionName(project, stage, f.id),
      memorySize: intent?.memorySize ?? defaults.memorySize,
      timeout: intent?.timeout ?? defaults.timeout,
      environment: intent?.environment ?? {},
      description: intent?.description,
    };
  });

  const queues: QueueDefinition[] = (infra.queues ?? []).map((q) => {
    const file = app.queueFiles.find((f) => f.id === q.id)!;
    const timeout = q.timeout ?? defaults.timeout;
    const deadLetterQueue = q.deadLetterQueue ?? true;
    return {
      kind: 'queue',
      id: q.id,
      file: file.file,
      functionName: queueFunctionName(project, stage, q.id),
      memorySize: q.memorySize ?? defaults.memorySize,
      timeout,
      environment: {},
      queueName: queueName(project, stage, q.id),
      deadLetterQueue,
      deadLetterQueueName: deadLetterQueue ? deadLetterQueueName(project, stage, q.id) : undefined,
      batchSize: q.batchSize ?? 10,
      visibilityTimeout: q.visibilityTimeout ?? Math.min(43200, Math.max(30, 6 * timeout)),
      maxReceiveCount: q.maxReceiveCount ?? 3,
      retentionDays: q.retentionDays ?? 4,
      variables: queueEnv(q.id),
    };
  });

  const crons: CronDefinition[] = (infra.schedules ?? []).map((s) => {
    const file = app.cronFiles.find((f) => f.id === s.id)!;
    const parsed = parseSchedule(s.schedule);
    return {
      kind: 'cron',
      id: s.id,
      file: file.file,
      functionName: cronFunctionName(project, stage, s.id),
      ruleName: cronRuleName(project, stage, s.id),
      memorySize: s.memorySize ?? defaults.memorySize,
      timeout: s.timeout ?? defaults.timeout,
      environment: {},
      schedule: s.schedule,
      expression: parsed.ok ? parsed.expression : '',
      enabled: s.enabled ?? true,
      retryAttempts: s.retryAttempts ?? 2,
      description: s.description,
    };
  });

  const databases = (infra.databases ?? []).map((d) => ({
    id: d.id,
    engine: d.engine ?? 'postgres',
    databaseName: d.databaseName ?? d.id.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^(\d)/, '_$1'),
    migrationsDir: d.migrationsDir ?? 'migrations',
    engineVersion: d.engineVersion ?? DEFAULT_POSTGRES_VERSION,
    migrationFunctionName: migrationFunctionName(project, stage, d.id),
    variables: databaseEnv(d.id),
  }));

  const storage = (infra.storage ?? []).map((b) => ({
    id: b.id,
    cdn: b.cdn ?? false,
    lifecycle: b.lifecycle ?? [],
    corsOrigins: b.corsOrigins ?? [],
    maxUploadBytes: b.maxUploadBytes ?? 10 * 1024 * 1024,
    allowedContentTypes: b.allowedContentTypes,
    inlineActiveContent: b.inlineActiveContent ?? false,
    versioned: b.versioned ?? false,
    notifications: b.notifications ?? [],
    variables: bucketEnv(b.id),
  }));

  const caches = (infra.caches ?? []).map((k) => ({ id: k.id, engine: k.engine ?? 'valkey', cacheName: cacheName(project, stage, k.id), variables: cacheEnv(k.id) }));

  const auth = infra.auth
    ? {
        selfSignUp: infra.auth.selfSignUp ?? false,
        mfa: infra.auth.mfa ?? 'optional',
        passwordMinLength: infra.auth.passwordMinLength ?? 12,
        accessTokenValidityMinutes: infra.auth.accessTokenValidityMinutes ?? 60,
        domainPrefix: infra.auth.domainPrefix ?? authDomainPrefixBase(project, stage),
        domainPrefixUnique: infra.auth.domainPrefix === undefined,
        userPoolName: userPoolName(project, stage),
        scopes: config.security.scopes,
        appClients: config.security.appClients,
        roles: config.security.roles,
      }
    : undefined;

  const units: FunctionUnit[] = [...routes, ...functions, ...queues, ...crons];
  const definition: AppDefinition = {
    project,
    stage,
    region: config.region,
    rootDir: app.rootDir,
    stages: app.stages,
    config,
    routes,
    functions,
    queues,
    crons,
    databases,
    storage,
    caches,
    auth,
    units,
    environment: buildEnvironment({ project, stage, region: config.region, logLevel: config.settings.logs.level, databases, storage, queues, caches, auth: auth !== undefined }),
    directories: app.directories,
    forStage: (other: string) => buildStage(app, other),
  };
  return definition;
}
