import { ENV } from '@framework/core/names';
import { RuntimeError } from '../errors.js';
import { devEndpoint, requireEnv } from '../invoke/function-name.js';

/** What `broadcast` did with each connection: never throws for a connection that is gone or failed. */
export interface BroadcastResult {
  /** Connections the message was handed to. */
  readonly sent: readonly string[];
  /** Connections that no longer exist (the API answered 410 Gone): drop them from wherever you keep them. */
  readonly gone: readonly string[];
  /** Connections the message could not be sent to for another reason, with the error. */
  readonly failed: ReadonlyArray<{ readonly connectionId: string; readonly error: Error }>;
}

/** `service.ws`: sends to the WebSocket API's connections through its `@connections` management API. */
export interface WsClient {
  /** Sends one message. A string or bytes are sent as they are, anything else as JSON. Throws `WsConnectionGone` when the connection no longer exists. */
  send(connectionId: string, data: unknown): Promise<void>;
  /** Sends one message to each connection, concurrently; a gone or failing connection is reported in the result, not thrown. */
  broadcast(connectionIds: Iterable<string>, data: unknown): Promise<BroadcastResult>;
  /** Closes a connection (its `$disconnect` runs). A connection already gone is not an error. */
  disconnect(connectionId: string): Promise<void>;
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
  const { mod, client } = await getManagement();
  try {
    await client.send(new mod.PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
  } catch (error) {
    if (isGone(error)) throw new WsConnectionGone(connectionId);
    throw new RuntimeError('FW_ERR_WS_SEND_FAILED', `Sending to WebSocket connection ${connectionId} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** The client behind `service.ws`; the endpoint comes from `FW_WS_MANAGEMENT_URL`, read at the first call. */
export function wsClient(): WsClient {
  return {
    send: (connectionId, data) => post(connectionId, payload(data)),
    async broadcast(connectionIds, data) {
      const bytes = payload(data);
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
      return { sent, gone, failed };
    },
    async disconnect(connectionId) {
      const { mod, client } = await getManagement();
      try {
        await client.send(new mod.DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (error) {
        if (isGone(error)) return;
        throw new RuntimeError('FW_ERR_WS_SEND_FAILED', `Closing WebSocket connection ${connectionId} failed: ${(error as Error).message}`, { cause: error });
      }
    },
  };
}
