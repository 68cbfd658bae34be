import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEV_PATHS, DEV_WS_PATH, DEV_WS_REGISTRY_SERVICE, DEV_WS_SERVICE, wsConnectIsAuthorized, type AppDefinition, type DevWsReply, type DevWsRequest, type OutputValues } from '@framework/core';
import { authFromWsEvent, connectionRecord, InMemoryConnectionRegistry, type DevWsRegistryRequest, type WsEvent } from '@framework/runtime';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { JWTPayload } from 'jose';
import { accessTokenOf } from '@framework/auth';
import { authorizerContextOf } from '@framework/auth/ws-connect-authorizer';
import { localAudiences } from '../auth/issuer-plugin.js';
import { LocalIssuer, TokenRejected } from '../auth/local-issuer.js';
import { ConnectRefused, LocalWebSocketApi } from '../ws/local-websocket-api.js';
import type { DevContext, DevEngine, EngineStart } from './engine.js';

/** The management API's error, as API Gateway answers it (the SDK reads the type from `x-amzn-errortype`). */
function managementError(reply: FastifyReply, statusCode: number, type: string, message: string): FastifyReply {
  return reply.code(statusCode).header('x-amzn-errortype', type).header('content-type', 'application/json').send(JSON.stringify({ message }));
}

/**
 * What the `$connect` authorizer gives the connection under `fw dev`: the context the deployed authorizer
 * (`@framework/auth/ws-connect-authorizer`) returns, flat as API Gateway requires (`cognito:groups` space-separated),
 * plus the `principalId` API Gateway adds, so `ctx.auth` reads the same in both places.
 */
export function devConnectAuthorizerContext(claims: JWTPayload): Record<string, string | number | boolean> {
  const token = accessTokenOf(claims);
  return { ...authorizerContextOf(token), principalId: token.subject || token.clientId || '' };
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
  api?: LocalWebSocketApi;
  /** The connection registry: in memory, as connections end with `fw dev` anyway. */
  readonly registry = new InMemoryConnectionRegistry();

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'ws'>> {
    // The dev server's issuer: the same key file, so its tokens verify here as on the routes.
    const issuer = await LocalIssuer.open(context.dataDir, context.baseUrl, localAudiences(app));
    const base = new URL(context.baseUrl);
    const url = `ws://${base.host}${DEV_WS_PATH}`;
    const managementUrl = `${context.baseUrl}${DEV_PATHS.ws}`;
    const api = (this.api = new LocalWebSocketApi({
      api: { domainName: base.host, stage: app.stage, apiId: 'local' },
      definition: () => context.currentApp().ws,
      // Checked per message as HTTP requests are (`fresh`), not by a full check of every handler per message.
      ...(context.fresh ? { fresh: (file?: string) => context.fresh!(file) } : {}),
      invoke: (unit, event) => context.invoke(unit, event, { checked: context.fresh !== undefined }),
      connectAuthorized: () => wsConnectIsAuthorized(context.currentApp().ws, context.currentApp().auth),
      authorize: async (token) => {
        try {
          const { claims } = await issuer.verify(token);
          return devConnectAuthorizerContext(claims);
        } catch (error) {
          if (error instanceof TokenRejected) throw new ConnectRefused(401, `the token was rejected: ${error.message}`);
          throw error;
        }
      },
      log: context.log,
      // What the deployed framework function does for an app without a `$connect` / `$disconnect` file; a file's
      // `wsHandler` records and forgets the connection itself, as deployed.
      opened: (connectionId, connectedAt, authorizer) => {
        if (this.hasRoute(context, '$connect')) return;
        const subject = authFromWsEvent({ requestContext: { authorizer } } as unknown as WsEvent)?.subject;
        void this.registry.register(connectionRecord(connectionId, connectedAt, subject));
      },
      // A connection `$connect` recorded but that never opened gets no `$disconnect`: forget it here.
      closed: (connectionId, opened) => {
        if (!opened || !this.hasRoute(context, '$disconnect')) void this.registry.remove(connectionId);
      },
    }));
    const ws = app.ws!;
    // The registry table's and fan-out queue's deployed names stand in for their values: fw dev keeps both itself.
    const outputs: Record<string, OutputValues<'ws'>> = { default: { url, managementUrl, registryTable: ws.registryTableName, fanoutQueueUrl: ws.fanoutQueueName } };
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === DEV_WS_PATH || path === `${DEV_WS_PATH}/`) return void api.upgrade(request, socket, head);
      socket.on('error', () => undefined);
      socket.end(`HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    };
    const plugin: FastifyPluginAsync = async (server) => {
      server.server.on('upgrade', onUpgrade);
      server.addHook('onClose', async () => void server.server.off('upgrade', onUpgrade));
      const connections = `${DEV_PATHS.ws}/@connections/:id`;
      server.post<{ Params: { id: string } }>(connections, async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = api.send(request.params.id, body);
        if (result === 'gone') return managementError(reply, 410, 'GoneException', `connection ${request.params.id} does not exist (it closed, or never opened)`);
        if (result === 'too-large') return managementError(reply, 413, 'PayloadTooLargeException', `the message is ${body.length} bytes; API Gateway sends at most 128 KB`);
        return reply.code(200).send();
      });
      server.get<{ Params: { id: string } }>(connections, async (request, reply) => {
        const description = api.describe(request.params.id);
        if (!description) return managementError(reply, 410, 'GoneException', `connection ${request.params.id} does not exist`);
        return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(description));
      });
      server.delete<{ Params: { id: string } }>(connections, async (request, reply) => {
        if (!api.disconnect(request.params.id)) return managementError(reply, 410, 'GoneException', `connection ${request.params.id} does not exist`);
        return reply.code(204).send();
      });
    };
    const routes = app.ws?.routes.map((r) => r.routeKey).join(', ') ?? '';
    return {
      outputs,
      plugin,
      summary: [`${url} (routes ${routes}; selection ${app.ws?.routeSelectionExpression}; @connections at ${managementUrl})`],
      workerServices: {
        [DEV_WS_REGISTRY_SERVICE]: (request) => this.serveRegistry(request as DevWsRegistryRequest),
        // `service.ws` in a function's thread: the management API's operations without the SDK and loopback HTTP.
        [DEV_WS_SERVICE]: async (request): Promise<DevWsReply> => {
          const call = request as DevWsRequest;
          if (call.op === 'send') return { result: api.send(call.connectionId, Buffer.from(call.data.buffer, call.data.byteOffset, call.data.byteLength)) };
          return { result: api.disconnect(call.connectionId) ? 'closed' : 'gone' };
        },
      },
    };
  }

  private hasRoute(context: DevContext, routeKey: string): boolean {
    return context.currentApp().ws?.routes.some((r) => r.routeKey === routeKey) ?? false;
  }

  /** A function's registry call (`DevServerConnectionRegistry`). */
  private async serveRegistry(request: DevWsRegistryRequest): Promise<unknown> {
    const registry = this.registry;
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
    await this.api?.stop();
  }
}
