import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { readBucketSettings } from '../limits/bucket-settings.js';
import type { BucketClient } from './bucket-client.js';
import { LocalBucketClient } from './local-bucket-client.js';
import { S3BucketClient } from './s3-bucket-client.js';

export interface BucketClientOptions {
  /** Where the bucket's variables are read from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Extra S3 client settings, deployed only (an endpoint for an S3-compatible server, credentials in tests).
   * @default - the SDK's defaults (the function's role, its region)
   */
  readonly s3?: S3ClientConfig;
}

/** Wraps every bucket client made from now on (the seam `@framework-pro/tenancy` confines keys to a tenant with). */
export type BucketClientDecorator = (client: BucketClient) => BucketClient;

// On globalThis, so two copies of this package in one bundle share the decorator a pro package registered.
const DECORATOR = Symbol.for('framework.storage.bucketClientDecorator');
type Holder = { [DECORATOR]?: BucketClientDecorator };

/** Registers the decorator (one per process; `undefined` removes it). Clients made before keep what they had. */
export function setBucketClientDecorator(decorator: BucketClientDecorator | undefined): void {
  (globalThis as Holder)[DECORATOR] = decorator;
}

/**
 * The client of one bucket: the dev server's local engine when `FW_DEV_ENDPOINT` is set (under `fw dev`), S3
 * otherwise. Reads the bucket's variables now; throws `BucketNotConfiguredError` when the app has no such bucket.
 */
export function createBucketClient(bucketId: string, options: BucketClientOptions = {}): BucketClient {
  const settings = readBucketSettings(bucketId, options.env);
  const client = settings.devEndpoint !== undefined ? new LocalBucketClient(settings) : new S3BucketClient(settings, options.s3);
  const decorate = (globalThis as Holder)[DECORATOR];
  return decorate ? decorate(client) : client;
}
