import { DEV_WS_REGISTRY_SERVICE, type DevWorkerServiceCall } from '@framework/core/names';
import { WsRegistryError, type ConnectionQuery, type ConnectionRegistry, type RegisteredConnection } from './connection-registry.js';

/** One operation on the dev server's registry (its worker service `ws-registry`). */
export type DevWsRegistryRequest =
  | { readonly op: 'register'; readonly connection: RegisteredConnection }
  | { readonly op: 'remove'; readonly connectionId: string }
  | { readonly op: 'subscribe'; readonly connectionId: string; readonly topic: string; readonly nowMs: number }
  | { readonly op: 'unsubscribe'; readonly connectionId: string; readonly topic: string }
  | { readonly op: 'connections'; readonly query: ConnectionQuery; readonly nowMs: number }
  /** A batch of a large `publish`: the dev server sends it itself, as the deployed fan-out queue's consumer would. */
  | { readonly op: 'fanout'; readonly connectionIds: readonly string[]; readonly data: Uint8Array };

/**
 * The registry a function uses inside `fw dev`: each operation is one call to the dev server (through the function's
 * worker, no network port), which keeps the registry for every function and sees the connections open and close.
 */
export class DevServerConnectionRegistry implements ConnectionRegistry {
  constructor(private readonly call: DevWorkerServiceCall) {}

  async register(connection: RegisteredConnection): Promise<void> {
    await this.send('record a connection', { op: 'register', connection });
  }

  async remove(connectionId: string): Promise<void> {
    await this.send('forget a connection', { op: 'remove', connectionId });
  }

  async subscribe(connectionId: string, topic: string, nowMs: number): Promise<boolean> {
    return (await this.send('subscribe a connection', { op: 'subscribe', connectionId, topic, nowMs })) === true;
  }

  async unsubscribe(connectionId: string, topic: string): Promise<void> {
    await this.send('unsubscribe a connection', { op: 'unsubscribe', connectionId, topic });
  }

  async connections(query: ConnectionQuery, nowMs: number): Promise<string[]> {
    return (await this.send('list connections', { op: 'connections', query, nowMs })) as string[];
  }

  /** Hands a batch of a large fan-out to the dev server. */
  async fanout(connectionIds: readonly string[], data: Uint8Array): Promise<void> {
    await this.send('fan a message out', { op: 'fanout', connectionIds, data });
  }

  private async send(operation: string, request: DevWsRegistryRequest): Promise<unknown> {
    try {
      return await this.call(DEV_WS_REGISTRY_SERVICE, request);
    } catch (error) {
      throw new WsRegistryError(operation, error);
    }
  }
}
