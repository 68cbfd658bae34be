import * as t from 'io-ts';
import * as c from './codec.js';
import type { AuthIntent } from '../intents/auth.js';
import type { CacheIntent } from '../intents/caches.js';
import type { ScheduleIntent } from '../intents/crons.js';
import type { DatabaseIntent } from '../intents/databases.js';
import type { FunctionIntent } from '../intents/functions.js';
import type { CodecKit } from '../intents/intent-kind.js';
import type { QueueIntent } from '../intents/queues.js';
import { kindCodecs, type KindIntents } from '../intents/registry.js';
import type { StorageIntent } from '../intents/storage.js';

// Each kind's intent type and codec live in its module (`src/intents/`); they stay importable from here.
export type { AuthIntent, CacheIntent, DatabaseIntent, FunctionIntent, QueueIntent, ScheduleIntent, StorageIntent };
export type { LifecycleRule, UploadNotification } from '../intents/storage.js';
export { RESERVED_DOMAIN_WORDS } from '../intents/auth.js';

/** Ids of queues, schedules, databases, buckets and caches; each segment of a function id. */
export const INTENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

/** What every kind's codec is built from. */
const kit: CodecKit = {
  c,
  t,
  id: c.pattern('an id of letters, digits, "-" or "_" (at most 48, starting with a letter or digit)', INTENT_ID),
  functionId: c.pattern('a function id such as "reports/daily" (segments of letters, digits, "-" or "_")', /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/),
  memorySize: c.integer(128, 10240),
  timeout: c.integer(1, 900),
};

/**
 * Every intent of `defineApp({ infrastructure })`: a field per kind of the registry that has intents (`KindIntents`),
 * the existing ones spelled out here.
 */
export interface Infrastructure extends KindIntents {
  readonly databases?: readonly DatabaseIntent[];
  readonly storage?: readonly StorageIntent[];
  readonly auth?: AuthIntent;
  readonly queues?: readonly QueueIntent[];
  readonly caches?: readonly CacheIntent[];
  readonly schedules?: readonly ScheduleIntent[];
  readonly functions?: readonly FunctionIntent[];
}

/** Checks `infrastructure`: each kind's own codec, under its key (`kindCodecs`, in the order of the first release). */
export const infrastructureCodec = c.struct<Infrastructure>('an infrastructure object of intents', Object.fromEntries(Object.entries(kindCodecs(kit)).map(([key, codec]) => [key, c.optional(codec)])) as unknown as c.Fields<Infrastructure>);
