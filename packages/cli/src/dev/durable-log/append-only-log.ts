import * as fs from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';

/** Options of an {@link AppendOnlyLog}. */
export interface AppendOnlyLogOptions<R> {
  /**
   * The live state as records, written as the whole new file when the log is compacted. It is read after every
   * record appended so far has been applied to the state the caller keeps (callers change their state first, then
   * append), and records appended after it are replayed on top of it: replaying a record whose effect the snapshot
   * already holds must change nothing (records carry absolute values, not increments).
   */
  readonly snapshot: () => readonly R[];
  /** Below this many records in the file, it is never compacted. @default 1000 */
  readonly compactMinRecords?: number;
  /** Told what was recovered at open (a torn last record cut off, corrupt records skipped). @default - silent */
  readonly onRecover?: (problem: string) => void;
}

/** What opening a log found: the records to replay, oldest first, and the log to append to. */
export interface OpenedLog<R> {
  readonly log: AppendOnlyLog<R>;
  readonly records: R[];
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A file of JSON records, one a line, each prefixed with the CRC-32 of its text: `<crc32 hex> <json>\n`.
 *
 * Appends are group-committed: every record appended while a write is under way goes into the next single write and
 * `fdatasync`, and each `append` resolves only once its record is on disk. A crash can leave a torn last line (cut
 * mid-write, or garbage past the last newline): opening the log drops it and truncates the file to the last whole
 * record, so later appends start on a clean line. When the file holds at least twice as many records as the
 * snapshot, it is compacted: the snapshot is written to `<file>.compact`, synced, renamed over the log, and the folder
 * synced; a leftover `.compact` file (a crash before the rename) is ignored and removed.
 */
export class AppendOnlyLog<R> {
  private pending: string[] = [];
  private pendingRecords = 0;
  private waiters: Waiter[] = [];
  private flushing?: Promise<void>;
  private closed = false;
  private nextCompactionCheck: number;
  /** Flushes done (one write + one fdatasync each) and records written: how well appends are grouped. */
  readonly stats = { flushes: 0, records: 0, compactions: 0 };

  private constructor(
    readonly file: string,
    private handle: FileHandle,
    private size: number,
    private recordsInFile: number,
    private readonly options: AppendOnlyLogOptions<R>,
  ) {
    this.nextCompactionCheck = Math.max(options.compactMinRecords ?? 1000, recordsInFile * 2);
  }

  /**
   * Opens (or creates) the log at `file`, repairing a torn tail, and returns the records it holds. Takes `<file>.lock`
   * (this process's id) first: a second process appending to the same log would lose records when either compacts.
   * A lock left by a process that is gone (killed) is taken over.
   */
  static async open<R>(file: string, options: AppendOnlyLogOptions<R>): Promise<OpenedLog<R>> {
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    takeLock(`${file}.lock`);
    fs.rmSync(`${file}.compact`, { force: true });
    const existed = fs.existsSync(file);
    const { records, validBytes, totalBytes, skipped } = existed ? readRecords<R>(fs.readFileSync(file)) : { records: [], validBytes: 0, totalBytes: 0, skipped: 0 };
    if (skipped > 0) options.onRecover?.(`${path.basename(file)}: skipped ${skipped} corrupt record${skipped === 1 ? '' : 's'}`);
    if (validBytes < totalBytes) {
      fs.truncateSync(file, validBytes);
      options.onRecover?.(`${path.basename(file)}: cut off a torn last record (${totalBytes - validBytes} bytes, a crash mid-write)`);
    }
    const handle = await open(file, 'a');
    if (!existed) {
      await handle.sync();
      syncDirectory(dir);
    }
    return { log: new AppendOnlyLog<R>(file, handle, validBytes, records.length + skipped, options), records };
  }

  /** Appends one record; resolves once it is on disk. */
  append(record: R): Promise<void> {
    return this.appendAll([record]);
  }

  /** Appends records in order; resolves once all of them are on disk (in one write with whatever else is pending). */
  appendAll(records: readonly R[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the log ${path.basename(this.file)} is closed`));
    if (records.length === 0) return Promise.resolve();
    for (const record of records) this.pending.push(encodeRecord(record));
    this.pendingRecords += records.length;
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      // Start on a microtask: appends made in the same tick share the first write too.
      this.flushing ??= Promise.resolve().then(() => this.flushLoop());
    });
  }

  /** Writes what is pending, then closes the file; later appends reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.handle.close();
    releaseLock(`${this.file}.lock`);
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const chunk = Buffer.from(this.pending.join(''), 'utf8');
        const count = this.pendingRecords;
        const waiters = this.waiters;
        this.pending = [];
        this.pendingRecords = 0;
        this.waiters = [];
        try {
          await writeAll(this.handle, chunk);
          await this.handle.datasync();
          this.size += chunk.length;
          this.recordsInFile += count;
          this.stats.flushes++;
          this.stats.records += count;
          for (const waiter of waiters) waiter.resolve();
        } catch (error) {
          // A half-written chunk would glue onto the next record: cut the file back to its last whole record.
          await this.handle.truncate(this.size).catch(() => undefined);
          for (const waiter of waiters) waiter.reject(error);
          continue;
        }
        if (this.recordsInFile >= this.nextCompactionCheck && !this.closed) await this.compactIfWorthIt();
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private async compactIfWorthIt(): Promise<void> {
    // Let the callers whose records were just written run first (they resolve on microtasks).
    await new Promise((resolve) => setImmediate(resolve));
    const live = this.options.snapshot();
    if (live.length * 2 <= this.recordsInFile) {
      try {
        await this.compact(live);
      } catch {
        // The old file is still whole and complete; compaction is retried at the next threshold.
      }
    }
    this.nextCompactionCheck = Math.max(this.options.compactMinRecords ?? 1000, this.recordsInFile * 2);
  }

  private async compact(live: readonly R[]): Promise<void> {
    const temporary = `${this.file}.compact`;
    const chunk = Buffer.from(live.map(encodeRecord).join(''), 'utf8');
    const handle = await open(temporary, 'w');
    try {
      await writeAll(handle, chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
    syncDirectory(path.dirname(this.file));
    const previous = this.handle;
    this.handle = await open(this.file, 'a');
    await previous.close().catch(() => undefined);
    this.size = chunk.length;
    this.recordsInFile = live.length;
    this.stats.compactions++;
  }
}

/** `<crc32 of the JSON text, 8 hex digits> <JSON>\n`; JSON escapes line breaks inside strings, so a record is a line. */
export function encodeRecord(record: unknown): string {
  const text = JSON.stringify(record);
  return `${crc32(text).toString(16).padStart(8, '0')} ${text}\n`;
}

/**
 * The records of a log file: every whole line whose checksum matches, in order. `validBytes` ends after the last good
 * record (what follows it is a torn tail); corrupt lines before it are counted in `skipped`.
 */
export function readRecords<R>(data: Buffer): { records: R[]; validBytes: number; totalBytes: number; skipped: number } {
  const records: R[] = [];
  let validBytes = 0;
  let skipped = 0;
  let badSinceValid = 0;
  let start = 0;
  while (start < data.length) {
    const newline = data.indexOf(0x0a, start);
    if (newline === -1) break;
    const record = decodeLine<R>(data.toString('utf8', start, newline));
    start = newline + 1;
    if (record === undefined) {
      badSinceValid++;
      continue;
    }
    records.push(record.value);
    skipped += badSinceValid;
    badSinceValid = 0;
    validBytes = start;
  }
  return { records, validBytes, totalBytes: data.length, skipped };
}

function decodeLine<R>(line: string): { value: R } | undefined {
  if (line.length < 10 || line[8] !== ' ') return undefined;
  const text = line.slice(9);
  if (Number.parseInt(line.slice(0, 8), 16) !== crc32(text) || !/^[0-9a-f]{8}$/.test(line.slice(0, 8))) return undefined;
  try {
    return { value: JSON.parse(text) as R };
  } catch {
    return undefined;
  }
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** Thrown when another live process holds a log's lock. */
export class LogInUseError extends Error {
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(`${path.basename(file)} is in use by another process (pid ${pid}), likely another fw dev in this project: stop it first (if none runs, delete ${path.basename(file)}.lock)`);
    this.name = 'LogInUseError';
  }
}

/** `<pid> <start time>`: the start time (Linux) tells a live owner from a new process that got the same pid. */
function takeLock(lock: string): void {
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid} ${startTime(process.pid) ?? ''}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const [pidText, started] = fs.readFileSync(lock, 'utf8').trim().split(' ');
    const owner = Number.parseInt(pidText ?? '', 10);
    const sameProcess = (pid: number) => isAlive(pid) && (!started || startTime(pid) === undefined || startTime(pid) === started);
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && sameProcess(owner)) throw new LogInUseError(lock.slice(0, -'.lock'.length), owner);
    fs.rmSync(lock, { force: true });
  }
}

/** Field 22 of `/proc/<pid>/stat` (after the command name, which may hold spaces), where there is a `/proc`. */
function startTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function releaseLock(lock: string): void {
  try {
    if (Number.parseInt(fs.readFileSync(lock, 'utf8'), 10) === process.pid) fs.rmSync(lock);
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A new or renamed file survives a power cut only once its folder's entry is on disk too. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse to sync a folder; the file's own sync still holds on the common ones.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
