import { requireTenant } from '@framework-pro/tenancy';
import { handler } from '@framework/runtime';
import { attachmentPrefix } from '../../../../lib/attachments.js';
import { tenancy } from '../../../../lib/tenancy.js';

/** GET /tasks/{id}/attachments → the task's files, each with a download URL valid for 10 minutes. */
export const main = handler(
  async (_body, ctx, service) => {
    const bucket = service.storage.bucket('attachments');
    const prefix = attachmentPrefix(requireTenant(ctx).id, ctx.auth.subject, ctx.pathParams.id!);
    const page = await bucket.list({ prefix, limit: 100 });
    const attachments = await Promise.all(
      page.objects.map(async (o) => ({
        name: o.key.slice(prefix.length),
        size: o.size,
        lastModified: o.lastModified.toISOString(),
        downloadUrl: (await bucket.presignDownload(o.key, { expiresIn: 600 })).url,
      })),
    );
    return { attachments, more: page.cursor !== undefined };
  },
  { scopes: ['tasks:read'], middleware: [tenancy] },
);
