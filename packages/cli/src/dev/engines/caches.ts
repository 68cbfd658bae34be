import { DEV_PATHS, type AppDefinition, type OutputValues } from '@framework/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { sendError } from '../server/send-response.js';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * The embedded cache: an in-memory map per cache intent with TTLs, reachable over HTTP at the cache's endpoint
 * `${FW_DEV_ENDPOINT}/_dev/caches/<id>`:
 *
 * | route | answer |
 * |---|---|
 * | `PUT /_dev/caches/<id>/items/<key>` `{ value: string, ttlSeconds? }` | 204 |
 * | `GET /_dev/caches/<id>/items/<key>` | 200 `{ value }`, 404 when absent or expired |
 * | `DELETE /_dev/caches/<id>/items/<key>` | 204 |
 */
export class EmbeddedCacheEngine implements DevEngine {
  readonly intent = 'caches' as const;
  readonly kind = 'embedded' as const;
  private readonly stores = new Map<string, Map<string, Entry>>();

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'caches'>> {
    const outputs: Record<string, OutputValues<'caches'>> = {};
    for (const cache of app.caches) {
      this.stores.set(cache.id, new Map());
      outputs[cache.id] = { endpoint: `${context.baseUrl}${DEV_PATHS.caches}/${cache.id}` };
    }
    const storeOf = (id: string) => this.stores.get(id);
    const notFound = (reply: FastifyReply, id: string) => sendError(reply, 404, 'CACHE_NOT_FOUND', `no cache "${id}" in this app`);
    const plugin: FastifyPluginAsync = async (server) => {
      server.get<{ Params: { id: string; key: string } }>(`${DEV_PATHS.caches}/:id/items/:key`, async (request, reply) => {
        const store = storeOf(request.params.id);
        if (!store) return notFound(reply, request.params.id);
        const entry = store.get(request.params.key);
        if (!entry || entry.expiresAt <= Date.now()) {
          store.delete(request.params.key);
          return sendError(reply, 404, 'CACHE_MISS', `no item "${request.params.key}"`);
        }
        return { value: entry.value };
      });
      server.put<{ Params: { id: string; key: string } }>(`${DEV_PATHS.caches}/:id/items/:key`, async (request, reply) => {
        const store = storeOf(request.params.id);
        if (!store) return notFound(reply, request.params.id);
        let input: { value?: unknown; ttlSeconds?: unknown };
        try {
          input = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') ?? '') as typeof input;
        } catch {
          input = {};
        }
        if (typeof input.value !== 'string' || (input.ttlSeconds !== undefined && typeof input.ttlSeconds !== 'number')) {
          return sendError(reply, 400, 'INVALID_ITEM', 'expected { "value": "<string>", "ttlSeconds"?: n }');
        }
        store.set(request.params.key, { value: input.value, expiresAt: input.ttlSeconds === undefined ? Infinity : Date.now() + input.ttlSeconds * 1000 });
        return reply.code(204).send();
      });
      server.delete<{ Params: { id: string; key: string } }>(`${DEV_PATHS.caches}/:id/items/:key`, async (request, reply) => {
        const store = storeOf(request.params.id);
        if (!store) return notFound(reply, request.params.id);
        store.delete(request.params.key);
        return reply.code(204).send();
      });
    };
    return { outputs, plugin, summary: app.caches.map((c) => `${c.id}: in memory`) };
  }

  async stop(): Promise<void> {
    this.stores.clear();
  }
}

export const embeddedCaches: EngineFactory = {
  intent: 'caches',
  kind: 'embedded',
  label: 'in memory',
  isAvailable: async () => true,
  isNeeded: (app) => app.caches.length > 0,
  create: () => new EmbeddedCacheEngine(),
};
