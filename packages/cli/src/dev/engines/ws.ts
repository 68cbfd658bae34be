import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEV_PATHS, DEV_WS_PATH, DEV_WS_REGISTRY_SERVICE, DEV_WS_SERVICE, type AppDefinition, type DevWsReply, type DevWsRequest, type OutputValues } from '@framework/core';
import type { DevWsRegistryRequest } from '@framework/runtime';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { LocalWebSocketApi } from '../ws/local-websocket-api.js';
import type { DevContext, DevEngine, EngineStart } from './engine.js';
import type { WsConnections } from './ws-connections.js';
import { DEV_ENDPOINT_ANY_BODY } from '../server/dev-endpoint-guard.js';

/** The management API's error, as API Gateway answers it (the SDK reads the type from `x-amzn-errortype`). */
function managementError(reply: FastifyReply, statusCode: number, type: string, message: string): FastifyReply {
  return reply.code(statusCode).header('x-amzn-errortype', type).header('content-type', 'application/json').send(JSON.stringify({ message }));
}

/**
 * The embedded WebSocket API: connections on the dev server's own port at `ws://<host>:<port>/_ws` (output `url`,
 * `FW_WS_URL`), and its `@connections` management API under `/_dev/ws` (output `managementUrl`,
 * `FW_WS_MANAGEMENT_URL`), so `service.ws` (the AWS SDK's client) works unchanged:
 *
 * | route | answer |
 * |---|---|
 * | `POST /_dev/ws/@connections/<id>` (the message as the body) | 200; 410 `GoneException`; 413 `PayloadTooLargeException` |
 * | `GET /_dev/ws/@connections/<id>` | 200 `{ connectedAt, identity: { sourceIp, userAgent }, lastActiveAt }`; 410 |
 * | `DELETE /_dev/ws/@connections/<id>` | 204 (the connection closes, `$disconnect` runs); 410 |
 *
 * Plain `ws` on the server's `upgrade` event rather than `@fastify/websocket`: the upgrade must be answered with a
 * status (401, 403) after `$connect` ran asynchronously, and Fastify's request pipeline (body parsing, the `/_dev`
 * guard, the route table) has nothing to add to an upgrade.
 */
export class EmbeddedWsEngine implements DevEngine {
  readonly intent = 'ws' as const;
  readonly kind = 'embedded' as const;
  /** The WebSocket API, once opened (see `connections`). */
  api?: LocalWebSocketApi;
  /**
   * The API and its connection registry, opened at the first upgrade, registry call or management request that
   * needs them (ws-connections.ts: @framework/auth, jose, the runtime and `ws` take 0.4-1 s to load, which the
   * start of `fw dev` and its first HTTP request no longer pay). Undefined until then.
   */
  private opening?: Promise<WsConnections>;
  private stopped = false;

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'ws'>> {
    const base = new URL(context.baseUrl);
    const url = `ws://${base.host}${DEV_WS_PATH}`;
    const managementUrl = `${context.baseUrl}${DEV_PATHS.ws}`;
    const connections = (): Promise<WsConnections> =>
      (this.opening ??= import('./ws-connections.js')
        .then(({ openWsConnections }) => openWsConnections(app, context))
        .then((opened) => {
          this.api = opened.api;
          // Stopped while it loaded: nothing may be left listening.
          if (this.stopped) void opened.api.stop();
          return opened;
        }));
    /** The API when it is open: before that no connection exists (a send or a disconnect finds it gone). */
    const openApi = () => this.api;
    const ws = app.ws!;
    // The registry table's and fan-out queue's deployed names stand in for their values: fw dev keeps both itself.
    const outputs: Record<string, OutputValues<'ws'>> = { default: { url, managementUrl, registryTable: ws.registryTableName, fanoutQueueUrl: ws.fanoutQueueName } };
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === DEV_WS_PATH || path === `${DEV_WS_PATH}/`) {
        if (this.api) return void this.api.upgrade(request, socket, head);
        // The first connection loads the API: a client gone meanwhile must not become an unhandled socket error.
        const dropped = () => undefined;
        socket.on('error', dropped);
        void connections().then(
          ({ api }) => {
            socket.off('error', dropped);
            api.upgrade(request, socket, head);
          },
          (error: Error) => {
            context.log.error(`the WebSocket API did not open: ${error.message}`);
            socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
          },
        );
        return;
      }
      socket.on('error', () => undefined);
      socket.end(`HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    };
    const plugin: FastifyPluginAsync = async (server) => {
      server.server.on('upgrade', onUpgrade);
      server.addHook('onClose', async () => void server.server.off('upgrade', onUpgrade));
      const connections = `${DEV_PATHS.ws}/@connections/:id`;
      server.post<{ Params: { id: string } }>(connections, { config: DEV_ENDPOINT_ANY_BODY }, async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = openApi()?.send(request.params.id, body) ?? 'gone';
        if (result === 'gone') return managementError(reply, 410, 'GoneException', `connection ${request.params.id} does not exist (it closed, or never opened)`);
        if (result === 'too-large') return managementError(reply, 413, 'PayloadTooLargeException', `the message is ${body.length} bytes; API Gateway sends at most 128 KB`);
        return reply.code(200).send();
      });
      server.get<{ Params: { id: string } }>(connections, { config: DEV_ENDPOINT_ANY_BODY }, async (request, reply) => {
        const description = openApi()?.describe(request.params.id);
        if (!description) return managementError(reply, 410, 'GoneException', `connection ${request.params.id} does not exist`);
        return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(description));
      });
      server.delete<{ Params: { id: string } }>(connections, { config: DEV_ENDPOINT_ANY_BODY }, async (request, reply) => {
        if (!openApi()?.disconnect(request.params.id)) return managementError(reply, 410, 'GoneException', `connection ${request.params.id} does not exist`);
        return reply.code(204).send();
      });
    };
    const routes = app.ws?.routes.map((r) => r.routeKey).join(', ') ?? '';
    return {
      outputs,
      plugin,
      summary: [`${url} (routes ${routes}; selection ${app.ws?.routeSelectionExpression}; @connections at ${managementUrl})`],
      workerServices: {
        [DEV_WS_REGISTRY_SERVICE]: async (request) => this.serveRegistry((await connections()).registry, request as DevWsRegistryRequest),
        // `service.ws` in a function's thread: the management API's operations without the SDK and loopback HTTP.
        [DEV_WS_SERVICE]: async (request): Promise<DevWsReply> => {
          const call = request as DevWsRequest;
          const api = openApi();
          if (call.op === 'send') return { result: api?.send(call.connectionId, Buffer.from(call.data.buffer, call.data.byteOffset, call.data.byteLength)) ?? 'gone' };
          return { result: api?.disconnect(call.connectionId) ? 'closed' : 'gone' };
        },
      },
    };
  }

  /** A function's registry call (`DevServerConnectionRegistry`). */
  private async serveRegistry(registry: WsConnections['registry'], request: DevWsRegistryRequest): Promise<unknown> {
    switch (request.op) {
      case 'register':
        return registry.register(request.connection);
      case 'remove':
        return registry.remove(request.connectionId);
      case 'subscribe':
        return registry.subscribe(request.connectionId, request.topic, request.nowMs);
      case 'unsubscribe':
        return registry.unsubscribe(request.connectionId, request.topic);
      case 'connections':
        return registry.connections(request.query, request.nowMs);
      case 'fanout': {
        // Sent after the answer, as the deployed queue's consumer sends after `publish` returned.
        const data = Buffer.from(request.data);
        setImmediate(() => {
          for (const id of request.connectionIds) if (this.api?.send(id, data) === 'gone') void registry.remove(id);
        });
        return undefined;
      }
      default:
        throw new Error(`unknown WebSocket registry operation ${(request as { op?: unknown }).op as string}`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.api?.stop();
  }
}
