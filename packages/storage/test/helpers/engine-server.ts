import type { BucketDefinition } from '@framework/core';
import { bucketEnv, ENV } from '@framework/core/names';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { LOCAL_STORAGE_PATH, LocalStorageEngine, type LocalStorageEngineOptions } from '../../src/local/index.js';

/** A bucket definition as core's `defineApp` builds it (defaults of the intent). */
export function bucketDefinition(id: string, overrides: Partial<Omit<BucketDefinition, 'id' | 'variables'>> = {}): BucketDefinition {
  return {
    id,
    cdn: false,
    lifecycle: [],
    corsOrigins: [],
    maxUploadBytes: 10 * 1024 * 1024,
    allowedContentTypes: undefined,
    inlineActiveContent: false,
    versioned: false,
    notifications: [],
    variables: bucketEnv(id),
    ...overrides,
  };
}

export interface EngineServer {
  readonly baseUrl: string;
  readonly rootDir: string;
  readonly engine: LocalStorageEngine;
  /** The environment a function gets under fw dev for these buckets. */
  readonly env: NodeJS.ProcessEnv;
  /** Requests the server saw for paths outside the engine (notification deliveries). */
  readonly others: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(options?: { keepFiles?: boolean }): Promise<void>;
}

/**
 * A bare HTTP server on 127.0.0.1 (free port) that mounts the engine under `/_dev/storage/` the way the dev server
 * does, and records any other request (so it can stand in for the dev server's queue and invoke endpoints).
 */
export async function startEngineServer(buckets: readonly BucketDefinition[], options: { rootDir?: string; now?: () => number; notify?: LocalStorageEngineOptions['notify']; log?: (message: string) => void } = {}): Promise<EngineServer> {
  const rootDir = options.rootDir ?? (await mkdtemp(path.join(tmpdir(), 'fw-storage-')));
  let baseUrl = '';
  let engine: LocalStorageEngine | undefined;
  const others: EngineServer['others'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (!req.url?.startsWith(LOCAL_STORAGE_PATH + '/') || !engine) {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        others.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(202).end();
        return;
      }
      const out = await engine.handle({ method: req.method ?? 'GET', url: req.url, headers: req.headers, body: req });
      res.writeHead(out.status, out.headers);
      if (out.body instanceof Readable) out.body.pipe(res);
      else res.end(out.body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine = await LocalStorageEngine.start({ rootDir, buckets, baseUrl: () => baseUrl, now: options.now, notify: options.notify, log: options.log ?? (() => undefined) });
  const env: NodeJS.ProcessEnv = { [ENV.devEndpoint]: baseUrl, ...engine.env() };
  return {
    baseUrl,
    rootDir,
    engine,
    env,
    others,
    async close({ keepFiles = false } = {}) {
      await engine!.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!keepFiles) await rm(rootDir, { recursive: true, force: true });
    },
  };
}

/** Posts a presigned upload the way a browser form or `curl -F` does: the fields, then the file last. */
export async function postForm(url: string, fields: Record<string, string>, file: { bytes: Uint8Array | string; type?: string; name?: string }): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'upload.bin');
  return fetch(url, { method: 'POST', body: form });
}
