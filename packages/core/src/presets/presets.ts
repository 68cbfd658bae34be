import { kindSettings } from '../intents/registry.js';
import { PRESET_NAMES, type PresetName } from './preset-names.js';
import type { BaseSettings } from './settings.js';
import type { EnvironmentSettings } from './stage-settings.js';

export { PRESET_NAMES, type PresetName } from './preset-names.js';

/**
 * The five presets of the groups every stage has; each kind with stage settings gives its own values in its module
 * (`KindSettings.presets`), joined in `PRESETS`. README.md shows the table and `fw config` prints the resolved values
 * with their sources.
 *
 * - `free`: stays inside the cloud's free tier where one exists: no NAT gateway, one small RDS instance.
 * - `nano`/`micro`: side projects and early products; Aurora Serverless v2 that may pause (nano) or idles small.
 * - `medium`/`large`: production: multi-AZ database, NAT per AZ, longer log and backup retention, data retained.
 */
const BASE_PRESETS: Readonly<Record<PresetName, BaseSettings>> = {
  free: {
    functions: { memorySize: 128, timeout: 10, runtime: 'nodejs22.x', architecture: 'arm64', tracing: false },
    logs: { level: 'debug', retentionDays: 7 },
    network: { natGateways: 0, maxAzs: 2 },
    api: { throttlingRateLimit: 10, throttlingBurstLimit: 20 },
    resources: { removalPolicy: 'destroy' },
  },
  nano: {
    functions: { memorySize: 256, timeout: 10, runtime: 'nodejs22.x', architecture: 'arm64', tracing: false },
    logs: { level: 'info', retentionDays: 14 },
    network: { natGateways: 0, maxAzs: 2 },
    api: { throttlingRateLimit: 50, throttlingBurstLimit: 100 },
    resources: { removalPolicy: 'destroy' },
  },
  micro: {
    functions: { memorySize: 512, timeout: 15, runtime: 'nodejs22.x', architecture: 'arm64', tracing: true },
    logs: { level: 'info', retentionDays: 30 },
    network: { natGateways: 1, maxAzs: 2 },
    api: { throttlingRateLimit: 200, throttlingBurstLimit: 400 },
    resources: { removalPolicy: 'snapshot' },
  },
  medium: {
    functions: { memorySize: 1024, timeout: 30, runtime: 'nodejs22.x', architecture: 'arm64', tracing: true },
    logs: { level: 'info', retentionDays: 90 },
    network: { natGateways: 2, maxAzs: 2 },
    api: { throttlingRateLimit: 2000, throttlingBurstLimit: 4000 },
    resources: { removalPolicy: 'retain' },
  },
  large: {
    functions: { memorySize: 2048, timeout: 30, runtime: 'nodejs22.x', architecture: 'arm64', tracing: true },
    logs: { level: 'info', retentionDays: 365 },
    network: { natGateways: 3, maxAzs: 3 },
    api: { throttlingRateLimit: 10000, throttlingBurstLimit: 20000 },
    resources: { removalPolicy: 'retain' },
  },
};

/** The five presets: every field has a concrete value, the kinds' groups between the network and API ones. */
export const PRESETS: Readonly<Record<PresetName, EnvironmentSettings>> = Object.fromEntries(
  PRESET_NAMES.map((name) => {
    const { functions, logs, network, api, resources } = BASE_PRESETS[name];
    const kinds = Object.fromEntries(kindSettings().map(({ group, settings }) => [group, settings.presets[name]]));
    return [name, { functions, logs, network, ...kinds, api, resources }];
  }),
) as unknown as Readonly<Record<PresetName, EnvironmentSettings>>;
