import { answer, cachedEmbedder, createLocalEmbedder, createModel, createVectorStore, ingestDocument, type Answer, type MockCall } from '@framework-pro/ai';
import { sql, type Database } from '@framework/data';
import type { BucketClient } from '@framework/storage';
import { attachmentOwnerPrefix } from './attachments.js';

/** The collection POST /ask searches: the caller's tasks and the text of their attachments. */
export const TASKS_COLLECTION = 'tasks';

/** Attachments read into the collection (images are not). */
const READABLE = /^(text\/plain|text\/markdown|text\/html|application\/pdf)\b/;

/**
 * The model: offline and deterministic everywhere in this example (fw dev, tests), a script that answers from the
 * sources it is given, citing each: the shape of a grounded model's answer, without a network. A deployed app would
 * pass `{ provider: 'bedrock', model: '...' }` here.
 */
export const model = createModel({ provider: 'mock', script: citeEverySource });

/** Quotes the first line of each source's text and cites it as `[n]`. */
function citeEverySource(call: MockCall): string {
  const sources = [...call.lastUserText.matchAll(/^\[(\d+)\] source: [^\n]*\n([^\n]*)/gm)];
  return sources.map(([, n, text]) => `${text!.trim()} [${n}]`).join('\n');
}

function storeOf(db: Database) {
  return createVectorStore({ db, embedder: cachedEmbedder(createLocalEmbedder({ dimensions: 384 }), { db }) });
}

interface TaskRow {
  id: string;
  title: string;
  status: string;
  due_at: Date | null;
  overdue: boolean;
  updated_at: Date;
}

/**
 * Indexes the owner's tasks (one document each: title, status, due date, whether it is overdue) and the text of their
 * attachments, each only when it changed: a task's version is its last change and today's date (overdue changes
 * with time), a file's is its ETag. The rows and the files are the tenant's (row-level security, tenant storage).
 */
export async function indexOwnerTasks(db: Database, bucket: BucketClient, tenant: string, owner: string): Promise<void> {
  const store = storeOf(db);
  const tasks = await db.many<TaskRow>(sql`SELECT id, title, status, due_at, updated_at, (status = 'open' AND due_at < now()) AS overdue FROM tasks WHERE owner = ${owner}`);
  const today = new Date().toISOString().slice(0, 10);
  for (const task of tasks) {
    const due = task.due_at ? ` It is due on ${task.due_at.toISOString().slice(0, 10)}.` : ' It has no due date.';
    const state = task.overdue ? ' It is overdue.' : '';
    await store.upsertDocument({
      collection: TASKS_COLLECTION,
      documentId: `task:${task.id}`,
      version: `${task.updated_at.toISOString()}|${task.due_at?.toISOString() ?? ''}|${today}`,
      source: `task "${task.title}"`,
      metadata: { owner, taskId: task.id, kind: 'task' },
      chunks: [{ text: `Task "${task.title}" is ${task.status}.${due}${state}` }],
    });
  }
  const prefix = attachmentOwnerPrefix(tenant, owner);
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
    for (const object of page.objects) {
      const [taskId, ...name] = object.key.slice(prefix.length).split('/');
      const version = object.etag.replace(/"/g, '');
      if ((await store.documentVersion(TASKS_COLLECTION, object.key)) === version) continue;
      const stored = await bucket.get(object.key);
      if (!stored || !READABLE.test(stored.contentType)) {
        stored?.body.destroy();
        continue;
      }
      const parts: Buffer[] = [];
      for await (const part of stored.body) parts.push(Buffer.from(part as Uint8Array));
      await ingestDocument(store, {
        collection: TASKS_COLLECTION,
        documentId: object.key,
        version,
        body: Buffer.concat(parts),
        contentType: stored.contentType,
        name: name.join('/'),
        source: `attachment ${name.join('/')} of task ${taskId}`,
        metadata: { owner, taskId, kind: 'attachment' },
      });
    }
    cursor = page.cursor;
  }
}

/** The answer from the owner's tasks and attachments only, with citations. */
export function askOwnerTasks(db: Database, owner: string, question: string): Promise<Answer> {
  return answer(question, { store: storeOf(db), collection: TASKS_COLLECTION, filter: { owner }, model: model.languageModel, k: 6 });
}
