/** Durable state of `fw dev`'s engines: an fsync'd, group-committed, compacted append-only log under `.fw/`. */
export { AppendOnlyLog, LogInUseError, encodeRecord, readRecords, type AppendOnlyLogOptions, type OpenedLog } from './append-only-log.js';
