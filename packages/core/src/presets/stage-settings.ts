import * as c from '../config/codec.js';
import { kindSettings, type KindSettingsGroups } from '../intents/registry.js';
import type { ApiSettings, BaseSettings, FunctionSettings, LogSettings, NetworkSettings, ResourceSettings } from './settings.js';
import { LOG_RETENTION_DAYS } from './settings.js';

/**
 * The sizing and operational settings of a stage: the groups every stage has (`BaseSettings`) and each kind's own
 * (`databases`, `caches`: declared by the kind's module, `KindSettings`). A preset gives a value to every field; an
 * environment's `overrides` may replace any of them. Nothing is hidden: `describeResolvedConfig` lists each field
 * with its source.
 */
export type EnvironmentSettings = BaseSettings & KindSettingsGroups;

/** Deep-partial settings: what an environment's `overrides` may contain. */
export type SettingsOverrides = { readonly [K in keyof EnvironmentSettings]?: Partial<EnvironmentSettings[K]> };

const functionFields: c.Fields<FunctionSettings> = {
  memorySize: c.required(c.integer(128, 10240)),
  timeout: c.required(c.integer(1, 900)),
  runtime: c.required(c.oneOf(['nodejs20.x', 'nodejs22.x'] as const)),
  architecture: c.required(c.oneOf(['arm64', 'x86_64'] as const)),
  tracing: c.required(c.boolean),
};
const logFields: c.Fields<LogSettings> = {
  level: c.required(c.oneOf(['debug', 'info', 'warn', 'error'] as const)),
  retentionDays: c.required(c.oneOf(LOG_RETENTION_DAYS)),
};
const networkFields: c.Fields<NetworkSettings> = {
  natGateways: c.required(c.integer(0, 3)),
  maxAzs: c.required(c.integer(1, 3)),
};
const apiFields: c.Fields<ApiSettings> = {
  throttlingRateLimit: c.required(c.integer(1, 1000000)),
  throttlingBurstLimit: c.required(c.integer(1, 1000000)),
};
const resourceFields: c.Fields<ResourceSettings> = {
  removalPolicy: c.required(c.oneOf(['destroy', 'retain', 'snapshot'] as const)),
};


/** Every group in the order settings are listed (the first release's: base groups around the kinds' own). */
function groups(): Array<[string, string, c.Fields<Record<string, unknown>>]> {
  const kinds = kindSettings().map(({ group, settings }): [string, string, c.Fields<Record<string, unknown>>] => [group, settings.label, settings.fields({ c })]);
  const base = (name: string, label: string, fields: object): [string, string, c.Fields<Record<string, unknown>>] => [name, label, fields as c.Fields<Record<string, unknown>>];
  return [base('functions', 'function settings', functionFields), base('logs', 'log settings', logFields), base('network', 'network settings', networkFields), ...kinds, base('api', 'API settings', apiFields), base('resources', 'resource settings', resourceFields)];
}

const allOptional = <T>(fields: c.Fields<T>): c.Fields<Partial<T>> =>
  Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, c.optional((f as c.Field<unknown>).codec)])) as unknown as c.Fields<Partial<T>>;

export const settingsCodec = c.struct<EnvironmentSettings>('environment settings', Object.fromEntries(groups().map(([name, label, fields]) => [name, c.required(c.struct(label, fields))])) as unknown as c.Fields<EnvironmentSettings>);

export const settingsOverridesCodec = c.struct<SettingsOverrides>(
  'settings overrides',
  Object.fromEntries(groups().map(([name, label, fields]) => [name, c.optional(c.struct(label, allOptional(fields)))])) as unknown as c.Fields<SettingsOverrides>,
);
