import { DEV_PATH_ROOT, ENV, type AppDefinition } from '@framework/core';
import type { LocalStorageEngine } from '@framework/storage/local';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { errorResponse } from '../server/gateway-response.js';
import { send } from '../server/send-response.js';

/** The dev console's storage endpoint (under `/_dev/console/`: the `/_dev` guard's Origin and content-type rules apply). */
export const STORAGE_CONSOLE_PATH = `${DEV_PATH_ROOT}/console/storage`;
/** The storage client's header (`@framework/storage`'s local object API). */
const CLIENT_HEADER = 'x-fw-storage-client';
const MAX_BODY = 16_384;

type Action = { action: 'list'; prefix?: string; cursor?: string } | { action: 'presign-upload'; key: string; contentType?: string } | { action: 'presign-download'; key: string } | { action: 'delete'; key: string };

async function readSmall(body: unknown): Promise<string | undefined> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (!(body instanceof Readable)) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `POST /_dev/console/storage/<bucket>` `{ action, ... }`: the Storage tab's calls, run on the engine's object API as a
 * function's storage client would (with this run's secret, which the page never sees): `list` (`prefix`, `cursor`),
 * `presign-upload` (`key`, `contentType`: the form the page then posts, as a front end would), `presign-download`
 * (`key`), `delete` (`key`). Answers the engine's JSON, or 204 for a delete.
 */
export async function consoleStorageCall(engine: LocalStorageEngine, storagePath: string, app: AppDefinition, request: FastifyRequest<{ Params: { bucket: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const bucket = app.storage.find((b) => b.id === request.params.bucket);
  if (!bucket) return send(reply, errorResponse(404, 'BUCKET_NOT_FOUND', `no bucket "${request.params.bucket}" in this app`, request.id));
  let input: Action;
  try {
    input = JSON.parse((await readSmall(request.body)) ?? '') as Action;
  } catch {
    return send(reply, errorResponse(400, 'INVALID_JSON', 'the request body is not JSON; send { "action": "list", "prefix": "" }', request.id));
  }
  const needsKey = input?.action === 'presign-upload' || input?.action === 'presign-download' || input?.action === 'delete';
  if ((input?.action !== 'list' && !needsKey) || (needsKey && (typeof (input as { key?: unknown }).key !== 'string' || !(input as { key: string }).key))) {
    return send(reply, errorResponse(400, 'INVALID_STORAGE_REQUEST', 'send { "action": "list" | "presign-upload" | "presign-download" | "delete", "key"?: "<object key>", "prefix"?: "..." } (every action but list needs a key)', request.id));
  }
  const headers = { [CLIENT_HEADER]: engine.clientEnv()[ENV.devStorageToken]!, 'content-type': 'application/json' };
  const base = `${storagePath}/${encodeURIComponent(bucket.id)}`;
  const call = (method: string, url: string, body?: unknown) =>
    engine.handle({ method, url, headers, body: Readable.from(body === undefined ? [] : [Buffer.from(JSON.stringify(body))]) });
  const answer =
    input.action === 'list'
      ? await call('GET', `${base}?list-type=2&max-keys=1000&prefix=${encodeURIComponent(input.prefix ?? '')}${input.cursor ? `&continuation-token=${encodeURIComponent(input.cursor)}` : ''}`)
      : input.action === 'delete'
        ? await call('DELETE', `${base}/${input.key.split('/').map(encodeURIComponent).join('/')}`)
        : input.action === 'presign-upload'
          ? await call('POST', `${base}?presign`, { operation: 'upload', key: input.key, ...(input.contentType ? { contentType: input.contentType } : {}) })
          : await call('POST', `${base}?presign`, { operation: 'download', key: input.key });
  reply.code(answer.status).headers(answer.headers);
  return reply.send(answer.body instanceof Readable ? answer.body : (answer.body ?? undefined));
}
