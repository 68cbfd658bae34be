import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * An append-only, fsync'd log of JSON entries (one a line), rewritten whole by `compact`. Appends that arrive while a
 * write is under way go out together in the next write and share its fsync (group commit), so a burst of requests
 * costs a few fsyncs, not one each. An append resolves only once its line is on disk: what the dev server has
 * acknowledged survives a crash of `fw dev` and of the machine.
 */
export class RecordJournal<TEntry> {
  /** The chain of writes; never left rejected, so one failed write does not fail every later one. */
  private tail: Promise<void> = Promise.resolve();
  /** Lines waiting for the next write, and the promise that write settles. */
  private batch?: { lines: string[]; written: Promise<void> };
  private closed = false;

  private constructor(
    readonly file: string,
    private handle: fs.FileHandle,
    /** Lines in the file since the last compaction (to decide when to compact). */
    private lines: number,
  ) {}

  /**
   * Opens (creating) the journal and returns its entries, oldest first. A last line cut short by a crash is skipped
   * (its append never resolved, so nobody was told it was kept); call `compact` next to drop it from the file.
   */
  static async open<TEntry>(file: string): Promise<{ journal: RecordJournal<TEntry>; entries: TEntry[] }> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    let text = '';
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const entries: TEntry[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        entries.push(JSON.parse(line) as TEntry);
      } catch {
        // A torn write: the process ended before its fsync.
      }
    }
    const handle = await fs.open(file, 'a');
    return { journal: new RecordJournal<TEntry>(file, handle, entries.length), entries };
  }

  /** Resolves once `entry` is on disk. */
  append(entry: TEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the journal ${this.file} is closed`));
    if (!this.batch) {
      const lines: string[] = [];
      const written = this.tail.then(async () => {
        // Later appends go to the next batch from here on.
        if (this.batch?.lines === lines) this.batch = undefined;
        await this.handle.appendFile(lines.join(''));
        await this.handle.datasync();
        this.lines += lines.length;
      });
      this.tail = written.catch(() => undefined);
      this.batch = { lines, written };
    }
    this.batch.lines.push(`${JSON.stringify(entry)}\n`);
    return this.batch.written;
  }

  /** Lines in the file since the last compaction. */
  get length(): number {
    return this.lines;
  }

  /**
   * Replaces the file with `entries` (the live state), atomically: a new file is written and fsync'd, then renamed
   * over the old one, so a crash leaves either the old journal or the new one, never half of one.
   */
  compact(entries: readonly TEntry[]): Promise<void> {
    // Appends from now on change state `entries` does not hold: they must land in the new file, after it.
    this.batch = undefined;
    const done = this.tail.then(async () => {
      const temporary = `${this.file}.${process.pid}.tmp`;
      const out = await fs.open(temporary, 'w');
      try {
        await out.writeFile(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
        await out.datasync();
      } finally {
        await out.close();
      }
      await fs.rename(temporary, this.file);
      await syncFolder(path.dirname(this.file));
      await this.handle.close();
      this.handle = await fs.open(this.file, 'a');
      this.lines = entries.length;
    });
    this.tail = done.catch(() => undefined);
    return done;
  }

  /** Waits for the writes under way, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    await this.handle.close();
  }
}

/** Makes a rename durable (the folder's entry). Not every platform can open a folder; there it is skipped. */
async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows: folders cannot be opened for fsync; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}
