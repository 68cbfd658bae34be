import type { DeadLetter, LocalMessage, LocalQueue } from '@framework/cli/dev';

/** What a test sees of a queue of the running app. */
export interface QueueObserver {
  /** The messages not yet deleted (waiting, delayed, or in flight), oldest first. */
  messages(): LocalMessage[];
  /** The messages moved to the dead-letter queue. */
  deadLetters(): DeadLetter[];
  /** Sends a message as a producer would (an object is sent as JSON); it is delivered on the next turn, or after `delaySeconds` of the clock. */
  send(body: unknown, options?: { delaySeconds?: number }): Promise<string>;
}

export function queueObserver(queue: LocalQueue): QueueObserver {
  return {
    messages: () => queue.pending(),
    deadLetters: () => queue.deadLetters.map((d) => ({ ...d })),
    send: async (body, options) => (await queue.send(typeof body === 'string' ? body : JSON.stringify(body), options?.delaySeconds ?? 0)).messageId,
  };
}

/** An object of a bucket. */
export interface StoredObject {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
  readonly lastModified: string;
}

/** What a test sees of a bucket of the running app. */
export interface BucketObserver {
  /** Every object (with keys starting with `prefix`), in key order. */
  list(prefix?: string): Promise<StoredObject[]>;
}

/** Lists through the storage engine's own object API, with the per-run secret the app's functions present. */
export function bucketObserver(baseUrl: string, bucketId: string, clientToken: string): BucketObserver {
  return {
    async list(prefix = '') {
      const objects: StoredObject[] = [];
      let cursor: string | undefined;
      do {
        const url = new URL(`/_dev/storage/${encodeURIComponent(bucketId)}`, baseUrl);
        url.searchParams.set('list-type', '2');
        url.searchParams.set('prefix', prefix);
        if (cursor) url.searchParams.set('continuation-token', cursor);
        const response = await fetch(url, { headers: { 'x-fw-storage-client': clientToken } });
        if (response.status !== 200) throw new Error(`listing bucket ${bucketId} failed (${response.status}): ${await response.text()}`);
        const page = (await response.json()) as { objects: StoredObject[]; cursor?: string };
        objects.push(...page.objects);
        cursor = page.cursor;
      } while (cursor);
      return objects;
    },
  };
}

/**
 * A map whose unknown keys throw a clear error (`app.queues['task-event']` with a typo) instead of giving undefined.
 */
export function strictRecord<T>(entries: Iterable<readonly [string, T]>, what: string, onMissing: (message: string) => Error): Readonly<Record<string, T>> {
  const target: Record<string, T> = Object.create(null);
  for (const [key, value] of entries) target[key] = value;
  return new Proxy(target, {
    get(object, key) {
      if (typeof key !== 'string') return undefined;
      if (Object.hasOwn(object, key)) return object[key];
      // Promise resolution and inspection probe these: not a lookup by the test.
      if (key === 'then' || key === 'toJSON' || key === 'inspect') return undefined;
      throw onMissing(`no ${what} "${key}" in this app; ${what}s: ${Object.keys(object).join(', ') || '(none)'}`);
    },
  });
}
