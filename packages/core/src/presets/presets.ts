import type { EnvironmentSettings } from './settings.js';

export const PRESET_NAMES = ['free', 'nano', 'micro', 'medium', 'large'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * The five presets. Every field has a concrete value here; README.md shows this table and `fw config` prints the
 * resolved values with their sources.
 *
 * - `free`: stays inside the cloud's free tier where one exists: no NAT gateway, one small RDS instance.
 * - `nano`/`micro`: side projects and early products; Aurora Serverless v2 that may pause (nano) or idles small.
 * - `medium`/`large`: production: multi-AZ database, NAT per AZ, longer log and backup retention, data retained.
 */
export const PRESETS: Readonly<Record<PresetName, EnvironmentSettings>> = {
  free: {
    functions: { memorySize: 128, timeout: 10, runtime: 'nodejs22.x', architecture: 'arm64', tracing: false },
    logs: { level: 'debug', retentionDays: 7 },
    network: { natGateways: 0, maxAzs: 2 },
    databases: { engine: 'rds-instance', instanceClass: 't4g.micro', minCapacity: 0, maxCapacity: 1, allocatedStorageGb: 20, backupRetentionDays: 1, multiAz: false, deletionProtection: false },
    caches: { maxDataStorageGb: 1, maxEcpuPerSecond: 1000 },
    api: { throttlingRateLimit: 10, throttlingBurstLimit: 20 },
    resources: { removalPolicy: 'destroy' },
  },
  nano: {
    functions: { memorySize: 256, timeout: 10, runtime: 'nodejs22.x', architecture: 'arm64', tracing: false },
    logs: { level: 'info', retentionDays: 14 },
    network: { natGateways: 0, maxAzs: 2 },
    databases: { engine: 'aurora-serverless-v2', instanceClass: 't4g.micro', minCapacity: 0, maxCapacity: 2, allocatedStorageGb: 20, backupRetentionDays: 1, multiAz: false, deletionProtection: false },
    caches: { maxDataStorageGb: 1, maxEcpuPerSecond: 1000 },
    api: { throttlingRateLimit: 50, throttlingBurstLimit: 100 },
    resources: { removalPolicy: 'destroy' },
  },
  micro: {
    functions: { memorySize: 512, timeout: 15, runtime: 'nodejs22.x', architecture: 'arm64', tracing: true },
    logs: { level: 'info', retentionDays: 30 },
    network: { natGateways: 1, maxAzs: 2 },
    databases: { engine: 'aurora-serverless-v2', instanceClass: 't4g.small', minCapacity: 0.5, maxCapacity: 4, allocatedStorageGb: 20, backupRetentionDays: 7, multiAz: false, deletionProtection: false },
    caches: { maxDataStorageGb: 2, maxEcpuPerSecond: 5000 },
    api: { throttlingRateLimit: 200, throttlingBurstLimit: 400 },
    resources: { removalPolicy: 'snapshot' },
  },
  medium: {
    functions: { memorySize: 1024, timeout: 30, runtime: 'nodejs22.x', architecture: 'arm64', tracing: true },
    logs: { level: 'info', retentionDays: 90 },
    network: { natGateways: 2, maxAzs: 2 },
    databases: { engine: 'aurora-serverless-v2', instanceClass: 'r6g.large', minCapacity: 1, maxCapacity: 16, allocatedStorageGb: 100, backupRetentionDays: 14, multiAz: true, deletionProtection: true },
    caches: { maxDataStorageGb: 10, maxEcpuPerSecond: 50000 },
    api: { throttlingRateLimit: 2000, throttlingBurstLimit: 4000 },
    resources: { removalPolicy: 'retain' },
  },
  large: {
    functions: { memorySize: 2048, timeout: 30, runtime: 'nodejs22.x', architecture: 'arm64', tracing: true },
    logs: { level: 'info', retentionDays: 365 },
    network: { natGateways: 3, maxAzs: 3 },
    databases: { engine: 'aurora-serverless-v2', instanceClass: 'r6g.xlarge', minCapacity: 2, maxCapacity: 64, allocatedStorageGb: 500, backupRetentionDays: 30, multiAz: true, deletionProtection: true },
    caches: { maxDataStorageGb: 50, maxEcpuPerSecond: 200000 },
    api: { throttlingRateLimit: 10000, throttlingBurstLimit: 20000 },
    resources: { removalPolicy: 'retain' },
  },
};
