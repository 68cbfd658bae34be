import type { BucketId, Register } from '@framework/runtime';
import type { BucketClient } from './bucket-client.js';
import { createBucketClient, type BucketClientOptions } from './create-bucket-client.js';

/**
 * The buckets of your app, by id. Augment it to get `service.storage.<id>` typed without an index signature:
 *
 * ```ts
 * declare module '@framework/storage' {
 *   interface Buckets { uploads: BucketClient }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Buckets {}

/** The app's bucket ids from the generated `.fw/types` (`Register` of `@framework/runtime`); none without it. */
type RegisteredBucketIds = Register extends { readonly buckets: infer Ids extends string } ? Ids : never;

/**
 * `service.storage`: one client per bucket id, created on first use and kept for the life of the function. With the
 * generated `.fw/types`, `service.storage.<id>` is typed for every bucket of the app and `bucket(id)` takes only them.
 */
export type StorageService = { readonly [K in keyof Buckets | RegisteredBucketIds]: BucketClient } & {
  /** The client of a bucket by id (works without augmenting `Buckets`). */
  bucket(id: BucketId): BucketClient;
};

/**
 * Creates `service.storage`. Property access (`storage.uploads`) and `storage.bucket('uploads')` return the same
 * cached client. Nothing is read from the environment until a bucket is first used.
 */
export function createStorageService(options: BucketClientOptions = {}): StorageService {
  const clients = new Map<string, BucketClient>();
  const bucket = (id: string): BucketClient => {
    let client = clients.get(id);
    if (!client) {
      client = createBucketClient(id, options);
      clients.set(id, client);
    }
    return client;
  };
  return new Proxy({ bucket } as StorageService, {
    get(target, prop, receiver) {
      if (prop === 'bucket' || typeof prop !== 'string') return Reflect.get(target, prop, receiver);
      // Promise resolution and inspection probe `then`/`toJSON`; a bucket is never named like that.
      if (prop === 'then' || prop === 'toJSON') return undefined;
      return bucket(prop);
    },
  });
}
