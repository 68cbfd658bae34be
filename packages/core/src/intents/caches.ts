import type { Codec } from '../config/codec.js';
import { envToken } from '../environment/env-token.js';
import { cacheName } from '../naming/unit-names.js';
import { outputRef, type CodecKit, type IntentKindModule, type KindSettings, type KindValue } from './intent-kind.js';

/** A cache (ElastiCache Serverless deployed, in-memory locally). */
export interface CacheIntent {
  readonly id: string;
  /** @default 'valkey' */
  readonly engine?: 'valkey' | 'redis';
}

/** The codec of `infrastructure.caches` (built from the kit: this module stays free of io-ts at run time). */
export function cachesCodec({ c, id }: CodecKit): Codec<readonly CacheIntent[]> {
  return c.array(
    c.struct<CacheIntent>('a cache intent { id }', {
      id: c.required(id),
      engine: c.optional(c.oneOf(['valkey', 'redis'] as const)),
    }),
  );
}

/** Outputs of a cache intent that reach functions. */
export const CACHE_OUTPUTS = ['endpoint'] as const;

/** Variables carrying a cache intent's outputs. */
export function cacheEnv(id: string) {
  return { endpoint: `FW_CACHE_${envToken(id)}_ENDPOINT` } as const;
}

export interface CacheDefinition {
  readonly id: string;
  readonly engine: 'valkey' | 'redis';
  readonly cacheName: string;
  readonly variables: ReturnType<typeof cacheEnv>;
}

/** `infrastructure.caches`: caches (ElastiCache Serverless deployed), sized by the stage's `caches` settings. */
/** The stage settings of caches (`settings.caches`): how a preset sizes every cache of the stage. */
export interface CacheSettings {
  readonly maxDataStorageGb: number;
  readonly maxEcpuPerSecond: number;
}

/** The caches' settings in each preset (README.md shows the table). */
const CACHE_SETTINGS: KindSettings<CacheSettings> = {
  label: 'cache settings',
  fields: ({ c }) => ({
    maxDataStorageGb: c.required(c.integer(1, 5000)),
    maxEcpuPerSecond: c.required(c.integer(1000, 15000000)),
  }),
  presets: {
    free: { maxDataStorageGb: 1, maxEcpuPerSecond: 1000 },
    nano: { maxDataStorageGb: 1, maxEcpuPerSecond: 1000 },
    micro: { maxDataStorageGb: 2, maxEcpuPerSecond: 5000 },
    medium: { maxDataStorageGb: 10, maxEcpuPerSecond: 50000 },
    large: { maxDataStorageGb: 50, maxEcpuPerSecond: 200000 },
  },
};

export const cachesKind: IntentKindModule<readonly CacheIntent[], readonly CacheDefinition[], (typeof CACHE_OUTPUTS)[number], 'caches', CacheSettings> = {
  settings: CACHE_SETTINGS,
  configKey: 'caches',
  ids: 'flat',
  codec: cachesCodec,
  outputs: CACHE_OUTPUTS,
  build: (intents, { project, stage }) =>
    (intents ?? []).map((k) => ({ id: k.id, engine: k.engine ?? 'valkey', cacheName: cacheName(project, stage, k.id), variables: cacheEnv(k.id) })),
  environment: (caches) => {
    const env: Record<string, KindValue<(typeof CACHE_OUTPUTS)[number]>> = {};
    for (const { id, variables } of caches) env[variables.endpoint] = outputRef(id, 'endpoint');
    return env;
  },
  units: () => [],
};
