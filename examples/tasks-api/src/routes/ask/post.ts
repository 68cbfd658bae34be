import { handler } from '@framework/runtime';
import * as z from '../../lib/zod.js';
import { askOwnerTasks } from '../../lib/ai.js';
import { tenancy } from '../../lib/tenancy.js';

const question = z.object({ question: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)) });

const citation = z.object({ marker: z.number(), chunkId: z.string(), documentId: z.string(), source: z.string() });
const answered = z.object({ answer: z.string(), found: z.boolean(), citations: z.array(citation) });

/**
 * POST /ask `{ question }` → an answer from the caller's tasks and the text of their attachments, with citations
 * (`[n]` in the text; each citation names the chunk and its source: a task or an attached file). It only retrieves:
 * tasks are indexed by the `task-events` consumer, attachments by `ai-ingest` (the bucket's upload notifications).
 * Nothing relevant: "Not found in the sources." and no model call. Locally the model is the example's offline mock
 * (src/lib/ai.ts).
 */
export const main = handler({
  scopes: ['tasks:read'],
  middleware: [tenancy],
  body: question,
  response: answered,
  fn: async (body, ctx, service) => {
    const result = await askOwnerTasks(service.db, ctx.auth.subject, body.question);
    return {
      answer: result.text,
      found: result.found,
      citations: result.citations.map((c) => ({ marker: c.marker, chunkId: c.chunkId, documentId: c.documentId, source: c.source })),
    };
  },
});
