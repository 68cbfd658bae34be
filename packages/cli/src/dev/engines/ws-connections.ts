import { wsConnectIsAuthorized, type AppDefinition } from '@framework/core';
import { authFromWsEvent, connectionRecord, InMemoryConnectionRegistry, type WsEvent } from '@framework/runtime';
import { localAudiences } from '../auth/issuer-plugin.js';
import { LocalIssuer, TokenRejected } from '../auth/local-issuer.js';
import { ConnectRefused, LocalWebSocketApi } from '../ws/local-websocket-api.js';
import type { DevContext } from './engine.js';
import { devConnectAuthorizerContext } from './ws-authorizer-context.js';

/** The WebSocket API's connections and their registry, once something needs them (see `EmbeddedWsEngine`). */
export interface WsConnections {
  readonly api: LocalWebSocketApi;
  readonly registry: InMemoryConnectionRegistry;
}

/**
 * Opens the embedded WebSocket API: the dev server's issuer (the same key file, so its tokens verify here as on the
 * routes) for `$connect`, the `ws` server and the in-memory connection registry (connections end with `fw dev`
 * anyway). Its module brings @framework/auth, jose, the runtime and `ws`: loaded at the first connection, registry
 * call or management request, not before the first HTTP request of an app that merely declares WebSockets.
 */
export async function openWsConnections(app: AppDefinition, context: DevContext): Promise<WsConnections> {
  const issuer = await LocalIssuer.open(context.dataDir, context.baseUrl, localAudiences(app));
  const base = new URL(context.baseUrl);
  const registry = new InMemoryConnectionRegistry();
  const hasRoute = (routeKey: string) => context.currentApp().ws?.routes.some((r) => r.routeKey === routeKey) ?? false;
  const api = new LocalWebSocketApi({
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
      if (hasRoute('$connect')) return;
      const subject = authFromWsEvent({ requestContext: { authorizer } } as unknown as WsEvent)?.subject;
      void registry.register(connectionRecord(connectionId, connectedAt, subject));
    },
    // A connection `$connect` recorded but that never opened gets no `$disconnect`: forget it here.
    closed: (connectionId, opened) => {
      if (!opened || !hasRoute('$disconnect')) void registry.remove(connectionId);
    },
  });
  return { api, registry };
}
