import type { DiscoveredRoute } from '../discovery/routes.js';
import type { DiscoveredUnit } from '../discovery/units.js';
import type { Infrastructure } from '../config/intents.js';
import type { ResolvedBilling } from '../config/billing.js';
import { layer } from '../config/resolve.js';
import { ConfigError } from '../errors.js';
import { buildKinds, kindsUnits } from '../intents/registry.js';
import { disambiguatedRouteFunctionName, routeFunctionName } from '../naming/unit-names.js';
import type { AppDefinition, FunctionUnit, RouteDefinition } from './app-definition.js';
import type { AppOptions } from './app-options.js';
import { buildEnvironment } from './app-environment.js';

/** Everything `defineApp` validated and discovered; stage-independent. */
export interface CheckedApp {
  readonly options: AppOptions;
  readonly rootDir: string;
  readonly stages: readonly string[];
  readonly infrastructure: Infrastructure;
  /** `billing` checked, when declared. */
  readonly billing?: ResolvedBilling;
  readonly directories: AppDefinition['directories'];
  readonly routes: readonly DiscoveredRoute[];
  /** The handler files of `functions` and of each kind with a handler folder, by key under `infrastructure`. */
  readonly handlerFiles: Readonly<Record<string, readonly DiscoveredUnit[]>>;
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

  const kinds = buildKinds(app.infrastructure, { project, stage, rootDir: app.rootDir, config, files: app.handlerFiles });
  const units: FunctionUnit[] = [...routes, ...kindsUnits(kinds)];
  const definition: AppDefinition = {
    project,
    stage,
    region: config.region,
    rootDir: app.rootDir,
    stages: app.stages,
    config,
    routes,
    ...kinds,
    ...(app.billing ? { billing: app.billing } : {}),
    units,
    environment: buildEnvironment({ project, stage, region: config.region, logLevel: config.settings.logs.level }, kinds, app.billing),
    directories: app.directories,
    forStage: (other: string) => buildStage(app, other),
  };
  return definition;
}
