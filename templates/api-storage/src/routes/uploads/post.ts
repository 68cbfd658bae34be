import { BadRequest, handler } from '@framework/runtime';
import { checkUploadRequest, presignUpload, type UploadRequest } from '../../lib/uploads.js';

/**
 * `POST /uploads`: authenticated (`tasks:write`). Answers 201 with a presigned form upload: POST `fields` then the
 * file (form field `file`, last) to `url`.
 */
export const main = handler(
  async (body: unknown, ctx) => {
    const problem = checkUploadRequest(body);
    if (problem) throw new BadRequest(problem);
    const owner = ctx.auth?.subject ?? 'anonymous';
    const upload = await presignUpload(owner, body as UploadRequest);
    return { url: upload.url, method: upload.method, fields: upload.fields, key: upload.key, maxBytes: upload.maxBytes, expiresAt: upload.expiresAt.toISOString() };
  },
  { scopes: ['tasks:write'] },
);
