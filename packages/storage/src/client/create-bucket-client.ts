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

/**
 * The client of one bucket: the dev server's local engine when `FW_DEV_ENDPOINT` is set (under `fw dev`), S3
 * otherwise. Reads the bucket's variables now; throws `BucketNotConfiguredError` when the app has no such bucket.
 */
export function createBucketClient(bucketId: string, options: BucketClientOptions = {}): BucketClient {
  const settings = readBucketSettings(bucketId, options.env);
  return settings.devEndpoint !== undefined ? new LocalBucketClient(settings) : new S3BucketClient(settings, options.s3);
}
