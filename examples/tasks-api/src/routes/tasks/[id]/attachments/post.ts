import { requireTenant } from '@framework-pro/tenancy';
import { handler } from '@framework/runtime';
import { attachmentKey, presignAttachment } from '../../../../lib/attachments.js';
import { tenancy } from '../../../../lib/tenancy.js';

/**
 * POST /tasks/{id}/attachments `{ fileName, contentType }` → 201 with a presigned form upload. The client then posts
 * the form itself, straight to storage (the function never handles the bytes):
 *
 *   curl -X POST <url> -F key=<fields.key> ... (every field, in order) -F file=@photo.png
 *
 * Size (5 MiB) and content type are enforced by the signature, locally and on S3.
 */
export const main = handler(
  async (body: { fileName?: unknown; contentType?: unknown } | undefined, ctx, service) => {
    const key = attachmentKey(requireTenant(ctx).id, ctx.auth.subject, ctx.pathParams.id!, body?.fileName);
    const upload = await presignAttachment(service.storage.bucket('attachments'), key, body?.contentType);
    return { url: upload.url, method: upload.method, fields: upload.fields, key: upload.key, maxBytes: upload.maxBytes, expiresAt: upload.expiresAt.toISOString() };
  },
  { scopes: ['tasks:write'], middleware: [tenancy] },
);
