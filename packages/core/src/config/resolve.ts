import { ConfigError, type ConfigProblem } from '../errors.js';
import { PRESETS, type PresetName } from '../presets/presets.js';
import type { EnvironmentSettings } from '../presets/stage-settings.js';
import { baseConfigCodec, type BaseConfig } from './base.js';
import { environmentConfigCodec, type EnvironmentAuthConfig, type EnvironmentConfig } from './environment.js';
import { closestName } from './codec.js';
import { joinPath, reportErrors } from './report.js';
import { securityConfigCodec, type ResolvedSecurity, type SecurityConfig } from './security.js';

/** Where a resolved value came from. */
export type ValueSource = 'base' | 'security' | `preset:${PresetName}` | 'override';

/** One resolved field and its origin, as `fw config` prints it. */
export interface ResolvedField {
  /** `functions.memorySize`, `base.region`, ... */
  readonly path: string;
  readonly value: unknown;
  readonly source: ValueSource;
}

/** Base + security + one environment, layered: the preset's values with the environment's overrides on top. */
export interface ResolvedConfig {
  readonly project: string;
  readonly region: string;
  readonly account?: string;
  readonly tags: Readonly<Record<string, string>>;
  /** The security config with its maps filled in; `mfa` stays as given (the auth intent's `mfa` is its default). */
  readonly security: ResolvedSecurity;
  readonly preset: PresetName;
  readonly settings: EnvironmentSettings;
  /** The stage's local sign-in (seeded users for `fw dev`); absent when the stage declares none. */
  readonly auth?: EnvironmentAuthConfig;
  /** Every field with its source, in a stable order. */
  readonly fields: readonly ResolvedField[];
}

/** Validates the three layers (every problem reported, with `rootPaths` prefixes) without throwing. */
export function checkLayers(
  base: unknown,
  security: unknown,
  env: unknown,
  rootPaths: { base: string; security: string; env: string } = { base: 'base', security: 'security', env: 'env' },
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  let securityValid = false;
  for (const [codec, value, root] of [
    [baseConfigCodec, base, rootPaths.base],
    [securityConfigCodec, security, rootPaths.security],
    [environmentConfigCodec, env, rootPaths.env],
  ] as const) {
    const result = (codec as typeof baseConfigCodec).validate(value, [{ key: '', type: codec, actual: value }]);
    if (result._tag === 'Left') problems.push(...reportErrors(result.left, root));
    else if (codec === securityConfigCodec) securityValid = true;
  }
  // Scope references are checked whenever the security layer itself is well-formed, so a bad base or environment
  // does not hide them: every problem is reported at once.
  if (securityValid) problems.push(...checkSecurity(security as SecurityConfig, rootPaths.security));
  return problems;
}

/** App clients may only ask for declared scopes, roles may only grant declared ones, providers need a browser client. */
function checkSecurity(security: SecurityConfig, root: string): ConfigProblem[] {
  const declared = Object.keys(security.scopes);
  const problems: ConfigProblem[] = [];
  const check = (owner: 'appClients' | 'roles' | 'everyUser', name: string | undefined, scopes: readonly string[]) => {
    scopes.forEach((scope, index) => {
      if (Object.hasOwn(security.scopes, scope)) return;
      const near = closestName(scope, declared);
      const hint = near ? `did you mean ${JSON.stringify(near)}? Otherwise add` : 'add';
      problems.push({
        code: 'FW_ERR_CONFIG_UNDECLARED_SCOPE',
        path: `${name === undefined ? `${root}.${owner}` : joinPath(`${root}.${owner}`, name)}.scopes[${index}]`,
        message: `scope ${JSON.stringify(scope)} is not declared in ${root}.scopes (declared: ${declared.map((s) => JSON.stringify(s)).join(', ') || 'none'}); ${hint} it there or remove it here`,
      });
    });
  };
  for (const [name, client] of Object.entries(security.appClients ?? {})) check('appClients', name, client.scopes);
  for (const [name, role] of Object.entries(security.roles ?? {})) check('roles', name, role.scopes);
  if (security.everyUser) {
    check('everyUser', undefined, security.everyUser.scopes);
    // Without roles no trigger narrows the scopes: every user already gets every scope their client asks for.
    if (!Object.keys(security.roles ?? {}).length) {
      problems.push({
        code: 'FW_ERR_CONFIG_INVALID_VALUE',
        path: `${root}.everyUser`,
        message: 'grants scopes on top of roles, but no roles are declared: without roles every user already gets every scope their app client asks for; declare roles, or remove everyUser',
      });
    }
  }
  // Federated sign-in happens in a browser: a provider no app client can send users to is a config mistake.
  const providers = Object.keys(security.identityProviders ?? {});
  const browserClient = Object.values(security.appClients ?? {}).some((client) => client.flows.includes('authorization_code') || client.flows.includes('implicit'));
  if (providers.length && !browserClient) {
    problems.push({
      code: 'FW_ERR_CONFIG_INVALID_VALUE',
      path: `${root}.identityProviders`,
      message: `declares ${providers.map((p) => JSON.stringify(p)).join(', ')} but no app client signs users in through a browser; add "authorization_code" to the flows of an app client (with its callbackUrls), or remove the providers`,
    });
  }
  return problems;
}

/**
 * Layers base, security and one environment into the resolved configuration. Throws a `ConfigError` listing every
 * problem of the three inputs.
 */
export function getResolvedConfig(base: BaseConfig, security: SecurityConfig, envInput: EnvironmentConfig): ResolvedConfig {
  const problems = checkLayers(base, security, envInput);
  if (problems.length) throw new ConfigError(problems);
  return layer(base, security, envInput);
}

/** Layering without validation (inputs already checked). */
export function layer(base: BaseConfig, security: SecurityConfig, env: EnvironmentConfig): ResolvedConfig {
  const presetSource = `preset:${env.preset}` as const;
  const preset = PRESETS[env.preset];
  const fields: ResolvedField[] = [
    { path: 'base.name', value: base.name, source: 'base' },
    { path: 'base.region', value: base.region, source: 'base' },
  ];
  if (base.account) fields.push({ path: 'base.account', value: base.account, source: 'base' });
  fields.push({ path: 'security.scopes', value: Object.keys(security.scopes), source: 'security' });
  fields.push({ path: 'security.appClients', value: Object.keys(security.appClients ?? {}), source: 'security' });
  fields.push({ path: 'security.roles', value: Object.keys(security.roles ?? {}), source: 'security' });
  if (security.everyUser) fields.push({ path: 'security.everyUser', value: security.everyUser.scopes, source: 'security' });
  if (security.identityProviders) fields.push({ path: 'security.identityProviders', value: Object.keys(security.identityProviders), source: 'security' });
  if (security.mfa) fields.push({ path: 'security.mfa', value: security.mfa, source: 'security' });

  const settings: Record<string, Record<string, unknown>> = {};
  for (const [group, values] of Object.entries(preset) as Array<[keyof EnvironmentSettings, Record<string, unknown>]>) {
    const overrides = (env.overrides?.[group] ?? {}) as Record<string, unknown>;
    settings[group] = {};
    for (const [key, presetValue] of Object.entries(values)) {
      const overridden = overrides[key] !== undefined;
      const value = overridden ? overrides[key] : presetValue;
      settings[group][key] = value;
      fields.push({ path: `${group}.${key}`, value, source: overridden ? 'override' : presetSource });
    }
  }
  return {
    project: base.name,
    region: base.region,
    account: base.account,
    tags: base.tags ?? {},
    security: { scopes: security.scopes, appClients: security.appClients ?? {}, roles: security.roles ?? {}, ...(security.everyUser ? { everyUser: security.everyUser } : {}), identityProviders: security.identityProviders ?? {}, ...(security.mfa ? { mfa: security.mfa } : {}) },
    preset: env.preset,
    settings: settings as unknown as EnvironmentSettings,
    ...(env.auth ? { auth: env.auth } : {}),
    fields,
  };
}

/** A table of every resolved field, its value and its source: what a preset did, in plain text. */
export function describeResolvedConfig(config: ResolvedConfig): string {
  const rows = config.fields.map((f) => [f.path, JSON.stringify(f.value), f.source] as const);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), ['field', 'value', 'source'][i]!.length));
  const line = (r: readonly string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(['field', 'value', 'source']), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
