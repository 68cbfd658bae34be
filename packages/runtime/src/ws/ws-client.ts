import { ENV, WS_FANOUT_THRESHOLD } from '@framework/core/names';
import { RuntimeError } from '../errors.js';
import { devEndpoint, requireEnv } from '../invoke/function-name.js';
import { getRootLogger } from '../logger/logger.js';
import { checkConnectionId, checkQuery, checkTopic, type ConnectionQuery } from './registry/connection-registry.js';
import { connectionRegistry } from './registry/default-connection-registry.js';
import { fanoutBatches, fanoutSink } from './registry/fanout.js';
import { devConnections } from './dev-connections.js';

/** What `broadcast` did with each connection: never throws for a connection that is gone or failed. */
export interface BroadcastResult {
  /** Connections the message was handed to. */
  readonly sent: readonly string[];
  /** Connections that no longer exist (the API answered 410 Gone): already removed from the connection registry. */
  readonly gone: readonly string[];
  /** Connections the message could not be sent to for another reason, with the error. */
  readonly failed: ReadonlyArray<{ readonly connectionId: string; readonly error: Error }>;
}

/** What `publish` did: a broadcast's result, plus the connections handed to the fan-out queue (a large topic). */
export interface PublishResult extends BroadcastResult {
  /**
   * Connections the message was handed to the framework's fan-out queue for (a topic of more than
   * `WS_FANOUT_THRESHOLD` connections); the queue's consumer sends and removes gone ones. Empty otherwise.
   */
  readonly queued: readonly string[];
}

/**
 * `service.ws`: sends to the WebSocket API's connections through its `@connections` management API, and keeps the
 * framework's connection registry (recorded at `$connect`, forgotten at `$disconnect` or on 410 Gone): topics,
 * lookups by user and by topic.
 */
export interface WsClient {
  /** Sends one message. A string or bytes are sent as they are, anything else as JSON. Throws `WsConnectionGone` (and forgets the connection) when it no longer exists. */
  send(connectionId: string, data: unknown): Promise<void>;
  /** Sends one message to each connection, concurrently; a gone or failing connection is reported in the result, not thrown. */
  broadcast(connectionIds: Iterable<string>, data: unknown): Promise<BroadcastResult>;
  /** Closes a connection (its `$disconnect` runs). A connection already gone is not an error. */
  disconnect(connectionId: string): Promise<void>;
  /** Subscribes a connection to a topic (until it unsubscribes or closes). Throws `WsConnectionGone` when the registry does not know the connection. */
  subscribe(connectionId: string, topic: string): Promise<void>;
  unsubscribe(connectionId: string, topic: string): Promise<void>;
  /**
   * Sends one message to every connection subscribed to `topic`, as `broadcast` does (never throws for a gone
   * connection: it is reported and forgotten); above `WS_FANOUT_THRESHOLD` connections, through the fan-out queue.
   */
  publish(topic: string, data: unknown): Promise<PublishResult>;
  /** The open connections of a user (the token subject at connect) or of a topic. */
  connections(query: ConnectionQuery): Promise<string[]>;
}

/** `send` to a connection that no longer exists (the management API answered 410 Gone). */
export class WsConnectionGone extends RuntimeError {
  constructor(readonly connectionId: string) {
    super('FW_ERR_WS_GONE', `WebSocket connection ${connectionId} no longer exists (410 Gone): the client disconnected; stop sending to it`);
  }
}

type ManagementModule = typeof import('@aws-sdk/client-apigatewaymanagementapi');
interface Management {
  readonly mod: ManagementModule;
  readonly client: InstanceType<ManagementModule['ApiGatewayManagementApiClient']>;
}
/** The client of the endpoint it was created for (a test or the dev server may change the variable). */
let management: { readonly endpoint: string; readonly ready: Promise<Management> } | undefined;

function getManagement(): Promise<Management> {
  const endpoint = requireEnv(ENV.wsManagementUrl, 'service.ws has no management endpoint (does src/ws/ hold a handler?)');
  if (management?.endpoint === endpoint) return management.ready;
  const ready = import('@aws-sdk/client-apigatewaymanagementapi').then((mod) => ({
    mod,
    // Under `fw dev` the dev server serves the same API and checks no signature: placeholder credentials spare the
    // developer from needing real ones.
    client: new mod.ApiGatewayManagementApiClient({ endpoint, ...(devEndpoint() ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}) }),
  }));
  management = { endpoint, ready };
  return ready;
}

/** Forget the cached management client (tests that point it at another endpoint). */
export function resetWsClient(): void {
  management = undefined;
}

function payload(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  return Buffer.from(typeof data === 'string' ? data : JSON.stringify(data ?? null), 'utf8');
}

function isGone(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'GoneException' || e?.$metadata?.httpStatusCode === 410;
}

async function post(connectionId: string, data: Uint8Array): Promise<void> {
  const dev = devConnections();
  if (dev) {
    // A copy of the bytes alone: a small Buffer is a view of a shared 8 KB pool, which would be cloned whole.
    const { result } = await dev({ op: 'send', connectionId, data: new Uint8Array(data) });
    if (result === 'gone') throw new WsConnectionGone(connectionId);
    if (result === 'too-large') throw new RuntimeError('FW_ERR_WS_SEND_FAILED', `Sending to WebSocket connection ${connectionId} failed: the message is ${data.length} bytes; API Gateway sends at most 128 KB (PayloadTooLargeException)`);
    return;
  }
  const { mod, client } = await getManagement();
  try {
    await client.send(new mod.PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
  } catch (error) {
    if (isGone(error)) throw new WsConnectionGone(connectionId);
    throw new RuntimeError('FW_ERR_WS_SEND_FAILED', `Sending to WebSocket connection ${connectionId} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** Forgets a connection the API answered 410 Gone for; a registry failure is logged, never thrown over the send's own outcome. */
async function forget(connectionIds: readonly string[]): Promise<void> {
  if (connectionIds.length === 0) return;
  try {
    const registry = await connectionRegistry();
    await Promise.all(connectionIds.map((id) => registry.remove(id)));
  } catch (error) {
    getRootLogger().warn('Could not remove gone WebSocket connections from the registry (they expire within 2 hours)', { connectionIds, error });
  }
}

/** Sends `bytes` to each connection concurrently; gone ones are forgotten. */
export async function broadcastBytes(connectionIds: Iterable<string>, bytes: Uint8Array): Promise<BroadcastResult> {
  const sent: string[] = [];
  const gone: string[] = [];
  const failed: { connectionId: string; error: Error }[] = [];
  await Promise.all(
    [...new Set(connectionIds)].map(async (connectionId) => {
      try {
        await post(connectionId, bytes);
        sent.push(connectionId);
      } catch (error) {
        if (error instanceof WsConnectionGone) gone.push(connectionId);
        else failed.push({ connectionId, error: error as Error });
      }
    }),
  );
  await forget(gone);
  return { sent, gone, failed };
}

/** The client behind `service.ws`; the endpoint comes from `FW_WS_MANAGEMENT_URL`, read at the first call. */
export function wsClient(): WsClient {
  return {
    async send(connectionId, data) {
      try {
        await post(connectionId, payload(data));
      } catch (error) {
        if (error instanceof WsConnectionGone) await forget([connectionId]);
        throw error;
      }
    },
    broadcast: (connectionIds, data) => broadcastBytes(connectionIds, payload(data)),
    async disconnect(connectionId) {
      const dev = devConnections();
      if (dev) {
        await dev({ op: 'disconnect', connectionId });
        return;
      }
      const { mod, client } = await getManagement();
      try {
        await client.send(new mod.DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (error) {
        if (isGone(error)) return;
        throw new RuntimeError('FW_ERR_WS_SEND_FAILED', `Closing WebSocket connection ${connectionId} failed: ${(error as Error).message}`, { cause: error });
      }
    },
    async subscribe(connectionId, topic) {
      checkConnectionId(connectionId);
      checkTopic(topic);
      if (!(await (await connectionRegistry()).subscribe(connectionId, topic, Date.now()))) throw new WsConnectionGone(connectionId);
    },
    async unsubscribe(connectionId, topic) {
      await (await connectionRegistry()).unsubscribe(checkConnectionId(connectionId), checkTopic(topic));
    },
    connections: async (query) => (await connectionRegistry()).connections(checkQuery(query), Date.now()),
    async publish(topic, data) {
      const ids = await (await connectionRegistry()).connections({ topic: checkTopic(topic) }, Date.now());
      const bytes = payload(data);
      const sink = ids.length > WS_FANOUT_THRESHOLD ? fanoutSink() : undefined;
      if (!sink) return { ...(await broadcastBytes(ids, bytes)), queued: [] };
      const queued: string[] = [];
      const failed: { connectionId: string; error: Error }[] = [];
      await Promise.all(
        fanoutBatches(ids).map(async (batch) => {
          try {
            await sink(batch, bytes);
            queued.push(...batch);
          } catch (error) {
            const cause = new RuntimeError('FW_ERR_WS_SEND_FAILED', `Handing ${batch.length} connections of topic ${topic} to the fan-out queue failed: ${(error as Error).message}`, { cause: error });
            for (const connectionId of batch) failed.push({ connectionId, error: cause });
          }
        }),
      );
      return { sent: [], gone: [], failed, queued };
    },
  };
}
