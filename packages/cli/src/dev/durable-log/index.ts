/** Durable state of `fw dev`'s engines: an fsync'd, group-committed, compacted append-only log under `.fw/`. */
export { AppendOnlyLog, encodeRecord, readRecords, type AppendOnlyLogOptions, type OpenedLog } from './append-only-log.js';
