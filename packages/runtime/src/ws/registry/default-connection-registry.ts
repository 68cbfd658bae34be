import { ENV } from '@framework/core/names';
import { isInsideLambda } from '../../idempotency/default-idempotency-store.js';
import { devWorkerServiceCall } from '../../idempotency/dev-server-idempotency-store.js';
import { requireEnv } from '../../invoke/function-name.js';
import type { ConnectionRegistry } from './connection-registry.js';
import { DevServerConnectionRegistry } from './dev-server-connection-registry.js';
import { createDynamoDBConnectionRegistry } from './dynamodb-connection-registry.js';
import { InMemoryConnectionRegistry } from './in-memory-connection-registry.js';

let current: { readonly key: string; readonly registry: Promise<ConnectionRegistry> } | undefined;
let chosen: Promise<ConnectionRegistry> | undefined;

/**
 * The registry of this container: DynamoDB inside a deployed function (table `FW_WS_REGISTRY_TABLE`), the dev
 * server's inside `fw dev`, one in memory per process otherwise (tests, scripts). Created on first use.
 */
export function connectionRegistry(env: NodeJS.ProcessEnv = process.env): Promise<ConnectionRegistry> {
  if (chosen) return chosen;
  const inLambda = isInsideLambda(env);
  const dev = inLambda ? undefined : devWorkerServiceCall(env);
  const key = inLambda ? `dynamodb:${env[ENV.wsRegistryTable] ?? ''}` : dev ? 'dev' : 'memory';
  if (current?.key === key) return current.registry;
  const registry: Promise<ConnectionRegistry> = inLambda
    ? createDynamoDBConnectionRegistry({ tableName: requireEnv(ENV.wsRegistryTable, 'the WebSocket connection registry has no table') })
    : Promise.resolve(dev ? new DevServerConnectionRegistry(dev) : new InMemoryConnectionRegistry());
  current = { key, registry };
  return registry;
}

/** Uses `registry` from now on (tests: a DynamoDB Local table, a fresh in-memory one); `undefined` goes back to the default. */
export function setConnectionRegistry(registry: ConnectionRegistry | undefined): void {
  chosen = registry ? Promise.resolve(registry) : undefined;
  current = undefined;
}
