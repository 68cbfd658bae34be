import { answer, cachedEmbedder, createLocalEmbedder, createModel, createVectorStore, ingestUploads, type Answer, type IngestedUpload, type MockCall, type ReadableBucket } from '@framework-pro/ai';
import { runWithTenant } from '@framework-pro/tenancy';
import { sql, type Database } from '@framework/data';
import { objectsCreated } from '@framework/storage';
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

/**
 * The owner as metadata and filter: the key segment attachments are stored under (`attachmentOwnerPrefix`), so a
 * task and its files carry the same value and the queue consumer can read it from the key.
 */
function ownerTag(owner: string): string {
  return attachmentOwnerPrefix('t', owner).slice(2, -1);
}

const present = new WeakMap<Database, Promise<boolean>>();

/**
 * Whether migration 0040 created the vector store: it skips it on a PostgreSQL server without pgvector, and then the
 * consumers index nothing (instead of failing every task event) and POST /ask finds nothing.
 */
function vectorStorePresent(db: Database): Promise<boolean> {
  let known = present.get(db);
  if (!known) {
    // Kept once true; asked again while false (a migration may still create it).
    known = db.one<{ present: boolean }>(sql`SELECT to_regclass('fw_ai_documents') IS NOT NULL AS present`).then((r) => {
      if (!r.present) present.delete(db);
      return r.present;
    });
    known.catch(() => present.delete(db));
    present.set(db, known);
  }
  return known;
}

interface TaskRow {
  id: string;
  owner: string;
  title: string;
  status: string;
  due_at: Date | null;
  overdue: boolean;
  updated_at: Date;
}

/**
 * Indexes one task (title, status, due date, whether it is overdue now), from the `task-events` consumer: its version
 * is its last change and whether it is overdue, so a redelivered event costs one read and a task that became overdue
 * is indexed again. A task that no longer exists leaves the collection. The rows are the tenant's (row-level security).
 */
export async function indexTask(db: Database, taskId: string): Promise<void> {
  if (!(await vectorStorePresent(db))) return;
  const store = storeOf(db);
  const task = await db.maybeOne<TaskRow>(sql`SELECT id, owner, title, status, due_at, updated_at, (status = 'open' AND due_at < now()) AS overdue FROM tasks WHERE id = ${taskId}`);
  if (!task) {
    await store.deleteDocument(TASKS_COLLECTION, `task:${taskId}`);
    return;
  }
  const due = task.due_at ? ` It is due on ${task.due_at.toISOString().slice(0, 10)}.` : ' It has no due date.';
  const state = task.overdue ? ' It is overdue.' : '';
  await store.upsertDocument({
    collection: TASKS_COLLECTION,
    documentId: `task:${task.id}`,
    version: `${task.updated_at.toISOString()}|${task.overdue ? 'overdue' : 'on-time'}`,
    source: `task "${task.title}"`,
    metadata: { owner: ownerTag(task.owner), taskId: task.id, kind: 'task' },
    chunks: [{ text: `Task "${task.title}" is ${task.status}.${due}${state}` }],
  });
}

/**
 * The `ai-ingest` consumer's work for one message: the attachments bucket's "object created" notification. The tenant
 * is the key's first segment (`<tenant>/<owner>/<task id>/<file>`): S3 notifications carry no tenant attribute, and the
 * key is where the upload route put it. Extract, chunk, embed and upsert run as that tenant, once per ETag.
 */
export async function ingestAttachments(db: Database, bucket: ReadableBucket, messageBody: unknown): Promise<IngestedUpload[]> {
  if (!(await vectorStorePresent(db))) return [];
  const tenants = [...new Set(objectsCreated(messageBody).map((o) => o.key.split('/')[0]!))];
  if (tenants.length === 0) return []; // S3's test event, or not an upload
  // S3 sends one record per notification; a message naming several tenants was not written by it.
  if (tenants.length > 1 || !/^[\w-]{1,64}$/.test(tenants[0]!)) throw new Error(`ai-ingest: a notification must name keys of one tenant ("<tenant>/..."), got ${JSON.stringify(tenants)}`);
  return runWithTenant({ id: tenants[0]! }, () =>
    ingestUploads(messageBody, {
      store: storeOf(db),
      bucket,
      collection: TASKS_COLLECTION,
      metadata: (key) => {
        const [, owner, taskId] = key.split('/');
        return { owner, taskId, kind: 'attachment' };
      },
      skip: (_key, contentType) => !READABLE.test(contentType),
    }),
  );
}

/** The answer from the owner's tasks and attachments only, with citations. */
export function askOwnerTasks(db: Database, owner: string, question: string): Promise<Answer> {
  return answer(question, { store: storeOf(db), collection: TASKS_COLLECTION, filter: { owner: ownerTag(owner) }, model: model.languageModel, k: 6 });
}
