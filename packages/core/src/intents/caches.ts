import { envToken } from '../environment/env-token.js';
import { cacheName } from '../naming/unit-names.js';
import { outputRef, type IntentKindModule, type KindValue } from './intent-kind.js';

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
export const cachesKind: IntentKindModule<readonly CacheDefinition[], (typeof CACHE_OUTPUTS)[number]> = {
  outputs: CACHE_OUTPUTS,
  build: ({ project, stage, infrastructure }) =>
    (infrastructure.caches ?? []).map((k) => ({ id: k.id, engine: k.engine ?? 'valkey', cacheName: cacheName(project, stage, k.id), variables: cacheEnv(k.id) })),
  environment: (caches) => {
    const env: Record<string, KindValue<(typeof CACHE_OUTPUTS)[number]>> = {};
    for (const { id, variables } of caches) env[variables.endpoint] = outputRef(id, 'endpoint');
    return env;
  },
  units: () => [],
};
