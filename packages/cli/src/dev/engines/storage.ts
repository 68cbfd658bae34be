import type { AppDefinition, OutputValues } from '@framework/core';
import type { LocalStorageEngine } from '@framework/storage/local';
import type { FastifyPluginAsync } from 'fastify';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import type { DevContext, DevEngine, EngineFactory, EngineStart } from './engine.js';
import { consoleStorageCall, STORAGE_CONSOLE_PATH } from './storage-console.js';

/**
 * The embedded storage engine: each bucket is a folder under `.fw/storage/<bucketId>/` (objects survive restarts),
 * served at `${FW_DEV_ENDPOINT}/_dev/storage/<bucketId>` with S3's behavior for presigned POST uploads and presigned
 * downloads, verified with a per-project secret (`.fw/storage/.secret`). The engine itself lives in
 * `@framework/storage/local`; this file mounts it on the dev server. Upload notifications go through the dev server's
 * own queue and invoke endpoints. Routes and error codes: the storage package's README.
 */
export class EmbeddedStorageEngine implements DevEngine {
  readonly intent = 'storage' as const;
  readonly kind = 'embedded' as const;
  private engine?: LocalStorageEngine;

  async start(app: AppDefinition, context: DevContext): Promise<EngineStart<'storage'>> {
    // Loaded here, not at the top: an app without storage does not pay for the engine's modules (busboy) at start-up.
    const { devServerNotifier, LOCAL_STORAGE_PATH, LocalStorageEngine } = await import('@framework/storage/local');
    const engine = await LocalStorageEngine.start({
      rootDir: context.rootDir,
      dataDir: path.join(context.dataDir, 'storage'),
      buckets: app.storage,
      baseUrl: context.baseUrl,
      region: app.region,
      notify: devServerNotifier(context.baseUrl),
      log: (message) => context.log.warn(message),
    });
    this.engine = engine;
    const outputs: Record<string, OutputValues<'storage'>> = {};
    for (const bucket of app.storage) outputs[bucket.id] = { bucket: bucket.id, publicUrl: engine.bucketUrl(bucket.id) };

    const plugin: FastifyPluginAsync = async (server) => {
      // The engine reads bodies itself, streaming (uploads may exceed the gateway's body limit the dev server applies).
      server.removeAllContentTypeParsers();
      server.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      server.all(`${LOCAL_STORAGE_PATH}/*`, async (request, reply) => {
        const answer = await engine.handle({ method: request.method, url: request.raw.url ?? request.url, headers: request.headers, body: request.raw });
        reply.code(answer.status).headers(answer.headers);
        if (answer.body instanceof Readable) return reply.send(answer.body);
        return reply.send(answer.body ?? undefined);
      });
      server.post<{ Params: { bucket: string } }>(`${STORAGE_CONSOLE_PATH}/:bucket`, async (request, reply) => consoleStorageCall(engine, LOCAL_STORAGE_PATH, app, request, reply));
    };
    const summary = app.storage.map((b) => `${b.id}: .fw/storage/${b.id}, up to ${b.maxUploadBytes} bytes${b.allowedContentTypes ? ` of ${b.allowedContentTypes.join(', ')}` : ''}${b.cdn ? ', public (cdn)' : ''}`);
    // The storage client's per-run secret: the object API answers only functions of this run.
    return { outputs, plugin, summary, env: engine.clientEnv() };
  }

  async stop(): Promise<void> {
    await this.engine?.stop();
  }
}

export const embeddedStorage: EngineFactory = {
  intent: 'storage',
  kind: 'embedded',
  label: 'local folder',
  isAvailable: async () => true,
  isNeeded: (app) => app.storage.length > 0,
  create: () => new EmbeddedStorageEngine(),
};
