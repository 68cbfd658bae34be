import type { EngineFactory } from './engine.js';

/**
 * The WebSocket API's engine, loaded only for an app that declares `ws`: its module brings the runtime's connection
 * registry, @framework/auth and the `ws` server, which an app without WebSockets would otherwise load before its first
 * request.
 */
export const embeddedWs: EngineFactory = {
  intent: 'ws',
  kind: 'embedded',
  label: 'WebSocket API on the dev server port',
  isAvailable: async () => true,
  isNeeded: (app) => app.ws !== undefined,
  create: async () => new (await import('./ws.js')).EmbeddedWsEngine(),
};
