import { ENV, WS_FANOUT_BATCH_SIZE } from '@framework/core/names';
import { isInsideLambda } from '../../idempotency/default-idempotency-store.js';
import { devWorkerServiceCall } from '../../idempotency/dev-server-idempotency-store.js';
import { requireEnv } from '../../invoke/function-name.js';
import { DevServerConnectionRegistry } from './dev-server-connection-registry.js';

/** One message of the fan-out queue: connections and the bytes to send them (base64). */
export interface FanoutBatch {
  readonly connectionIds: readonly string[];
  readonly data: string;
}

/** `ids` in batches of `WS_FANOUT_BATCH_SIZE`. */
export function fanoutBatches(ids: readonly string[], size = WS_FANOUT_BATCH_SIZE): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
  return batches;
}

type SqsModule = typeof import('@aws-sdk/client-sqs');
let sqs: Promise<{ mod: SqsModule; client: InstanceType<SqsModule['SQSClient']> }> | undefined;

/**
 * Where one batch of a large `publish` goes: deployed, a message on the framework's fan-out queue
 * (`FW_WS_FANOUT_QUEUE_URL`, consumed by the framework's `fw-ws-registry` function); under `fw dev`, the dev server,
 * which sends it itself. Undefined elsewhere (tests, scripts): the caller sends directly.
 */
export function fanoutSink(env: NodeJS.ProcessEnv = process.env): ((connectionIds: readonly string[], data: Uint8Array) => Promise<void>) | undefined {
  if (isInsideLambda(env)) {
    const queueUrl = requireEnv(ENV.wsFanoutQueueUrl, 'a large WebSocket publish has no fan-out queue');
    return async (connectionIds, data) => {
      sqs ??= import('@aws-sdk/client-sqs').then((mod) => ({ mod, client: new mod.SQSClient({}) }));
      const { mod, client } = await sqs;
      const body: FanoutBatch = { connectionIds, data: Buffer.from(data).toString('base64') };
      await client.send(new mod.SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
    };
  }
  const dev = devWorkerServiceCall(env);
  if (!dev) return undefined;
  const registry = new DevServerConnectionRegistry(dev);
  return (connectionIds, data) => registry.fanout(connectionIds, data);
}
