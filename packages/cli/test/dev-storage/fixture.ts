import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's node_modules (found upward from this file), so a project in a temp folder resolves @framework/*. */
function repositoryNodeModules(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'node_modules', '@framework', 'storage');
    if (existsSync(candidate)) return path.join(dir, 'node_modules');
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('no node_modules with @framework/storage above the test');
    dir = parent;
  }
}

/**
 * A small project with a storage intent, written to a temp folder: a route that presigns uploads, a route that lists
 * and presigns downloads, a route that reads an object, and a queue consumer and a function that record the upload
 * notifications they receive as objects under `seen/`.
 */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'files-app', private: true, type: 'module' }),
  'fw.config.ts': `import { defineApp } from '@framework/core';
export default defineApp({
  base: { name: 'files', region: 'eu-west-1' },
  security: { scopes: {} },
  envs: { dev: { preset: 'free' } },
  infrastructure: {
    queues: [{ id: 'arrivals', timeout: 5 }],
    storage: [
      {
        id: 'uploads',
        maxUploadBytes: 1024,
        allowedContentTypes: ['image/*', 'text/plain'],
        corsOrigins: ['http://app.localhost:5173'],
        notifications: [{ queue: 'arrivals', prefix: 'images/' }, { function: 'on-upload', prefix: 'docs/' }],
      },
    ],
  },
});
`,
  'src/routes/uploads/post.ts': `import { BadRequest, handler } from '@framework/runtime';
import { objectKeyProblem } from '@framework/storage';

export const main = handler(async (body: unknown, _ctx, service) => {
  const { key, contentType, maxBytes } = (body ?? {}) as { key?: string; contentType?: string; maxBytes?: number };
  const problem = objectKeyProblem(key);
  if (problem) throw new BadRequest(problem);
  const upload = await service.storage.bucket('uploads').presignUpload({ key: key!, contentType, maxBytes });
  return { url: upload.url, fields: upload.fields, expiresAt: upload.expiresAt.toISOString() };
});
`,
  'src/routes/files/get.ts': `import { handler } from '@framework/runtime';
import '@framework/storage';

export const main = handler(async (_body, ctx, service) => {
  const bucket = service.storage.bucket('uploads');
  const prefix = ctx.rawEvent.queryStringParameters?.prefix ?? '';
  const page = await bucket.list({ prefix });
  return { files: await Promise.all(page.objects.map(async (o) => ({ key: o.key, size: o.size, url: (await bucket.presignDownload(o.key, { expiresIn: 60 })).url }))) };
});
`,
  'src/routes/files/[name]/get.ts': `import { NotFound, handler } from '@framework/runtime';
import '@framework/storage';

export const main = handler(async (_body, ctx, service) => {
  const object = await service.storage.bucket('uploads').get(decodeURIComponent(ctx.pathParams.name!));
  if (!object) throw new NotFound('no such file');
  let text = '';
  for await (const chunk of object.body) text += Buffer.from(chunk).toString('utf8');
  return { contentType: object.contentType, text };
});
`,
  'src/queues/arrivals.ts': `import { taskHandler, type SQSEvent } from '@framework/runtime';
import { objectsCreated } from '@framework/storage';

export const main = taskHandler<SQSEvent>(async (event, _ctx, service) => {
  for (const record of event.Records) {
    for (const object of objectsCreated(record.body)) {
      await service.storage.bucket('uploads').put('seen/queue/' + object.key, JSON.stringify(object), { contentType: 'text/plain' });
    }
  }
  return {};
});
`,
  'src/functions/on-upload.ts': `import { taskHandler } from '@framework/runtime';
import { objectsCreated } from '@framework/storage';

export const main = taskHandler(async (event: unknown, _ctx, service) => {
  for (const object of objectsCreated(event)) {
    await service.storage.bucket('uploads').put('seen/function/' + object.key, JSON.stringify(object), { contentType: 'text/plain' });
  }
});
`,
};

export async function writeStorageFixture(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'fw-dev-storage-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await symlink(repositoryNodeModules(), path.join(root, 'node_modules'), 'dir');
  return root;
}

/** A copy of the example app (examples/tasks-api) in a temp folder, `node_modules` linked to the repository's. */
export async function copyExampleApp(): Promise<string> {
  const nodeModules = repositoryNodeModules();
  const root = await mkdtemp(path.join(tmpdir(), 'fw-dev-storage-example-'));
  // Readable by others: a native postgres running as another user keeps its data under `.fw/`.
  await chmod(root, 0o755);
  await cp(path.join(path.dirname(nodeModules), 'examples', 'tasks-api'), root, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw)$/.test(src) });
  await symlink(nodeModules, path.join(root, 'node_modules'), 'dir');
  return root;
}
