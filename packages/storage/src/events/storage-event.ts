/**
 * "An object arrived": the S3 event notification (version 2.1) that S3 sends to a queue (as the message body) or a
 * function (as the event). The local engine sends the same shape, so one consumer works in both places.
 */
export interface S3EventRecord {
  readonly eventVersion: string;
  readonly eventSource: 'aws:s3';
  readonly awsRegion: string;
  /** ISO 8601. */
  readonly eventTime: string;
  /** `ObjectCreated:Post` (presigned upload), `ObjectCreated:Put`, ... */
  readonly eventName: string;
  readonly s3: {
    readonly s3SchemaVersion: string;
    readonly configurationId: string;
    readonly bucket: { readonly name: string; readonly arn: string };
    /** `key` is URL-encoded as in a form (`+` for space), exactly as S3 sends it. */
    readonly object: { readonly key: string; readonly size: number; readonly eTag: string; readonly sequencer: string };
  };
}

export interface S3Event {
  readonly Records: readonly S3EventRecord[];
}

/** One arrived object, decoded. */
export interface ObjectCreated {
  readonly bucket: string;
  readonly key: string;
  readonly size: number;
  /** Without quotes, as S3 events carry it. */
  readonly etag: string;
  readonly eventName: string;
  readonly eventTime: string;
}

/** `a b/ü.png` → `a+b/%C3%BC.png`: how S3 writes a key into an event. */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key).replace(/%2F/g, '/').replace(/%20/g, '+');
}

export function decodeEventKey(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, ' '));
}

/** Builds the event for one new object (used by the local engine). */
export function objectCreatedEvent(input: { bucket: string; key: string; size: number; etag: string; eventName: string; region: string; configurationId: string; time?: Date }): S3Event {
  const time = input.time ?? new Date();
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: input.region,
        eventTime: time.toISOString(),
        eventName: input.eventName,
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: input.configurationId,
          bucket: { name: input.bucket, arn: `arn:aws:s3:::${input.bucket}` },
          object: { key: encodeEventKey(input.key), size: input.size, eTag: input.etag.replace(/"/g, ''), sequencer: time.getTime().toString(16).toUpperCase().padStart(16, '0') },
        },
      },
    ],
  };
}

/**
 * The objects an S3 event announces, keys decoded. Accepts the event (a function's payload) or its JSON text (a queue
 * message's `body`). S3's `s3:TestEvent` (sent once when a notification is configured) gives an empty list.
 */
export function objectsCreated(input: unknown): ObjectCreated[] {
  const event = typeof input === 'string' ? (JSON.parse(input) as unknown) : input;
  if (typeof event !== 'object' || event === null || !Array.isArray((event as S3Event).Records)) return [];
  return (event as S3Event).Records.filter((r) => r?.eventSource === 'aws:s3' && r.eventName?.startsWith('ObjectCreated:')).map((r) => ({
    bucket: r.s3.bucket.name,
    key: decodeEventKey(r.s3.object.key),
    size: r.s3.object.size,
    etag: r.s3.object.eTag,
    eventName: r.eventName,
    eventTime: r.eventTime,
  }));
}
