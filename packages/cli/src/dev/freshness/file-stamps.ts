import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WatchGate } from './watch-gate.js';

/**
 * How long after its modification time a file may be saved again and keep the same time: file system clocks are
 * coarse (a kernel tick on Linux before multigrain timestamps, 2 s on FAT). Within it a stamp also keeps the text.
 */
export const RACY_MS = 2000;

/** What a file or folder looked like: `stat` is its inode, size, modification and change times. */
export interface Stamp {
  readonly stat: string;
  readonly mtimeMs: number;
  /** The file's text, kept while a save in the same clock tick could leave `stat` unchanged. */
  content?: Buffer;
  /** The watch gate's count when a `stat` last found the file unchanged (see `WatchGate`). */
  verifiedAt?: number;
}

/**
 * Any save changes a file's stamp: an in-place write (its times), a rename over it (a new inode), `git checkout` and a
 * delete + re-create (a new inode and times); a folder's times change when an entry is added, removed or renamed.
 */
export function stampOf(file: string): Stamp {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return { stat: 'missing', mtimeMs: 0 };
  const stamp: Stamp = { stat: `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`, mtimeMs: stat.mtimeMs };
  if (stat.isFile() && Date.now() - stat.mtimeMs < RACY_MS) stamp.content = readOrUndefined(file);
  return stamp;
}

function statOf(file: string): string {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : 'missing';
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The stamps of the files a build read, taken before it read them: a file saved while the build ran then differs
 * from its stamp, so the next check builds again instead of trusting a build that may have read the old text.
 */
export class FileStamps {
  private readonly stamps = new Map<string, Stamp>();
  private readonly folders = new Map<string, Stamp>();
  /**
   * The watch gate's count when a check found every stamp unchanged and in a watched folder: while the count stays
   * the same nothing here can have changed, and a check is one comparison instead of a walk over every file.
   */
  private cleanAt?: number;

  /** Stamps `files` now. */
  constructor(files: Iterable<string> = []) {
    for (const file of files) this.stamps.set(file, stampOf(file));
  }

  /**
   * The stamps restored from `saved` (see `saved()`): what a build of an earlier run read, so this run can check
   * whether that build is still the files' current form.
   */
  static restore(saved: Readonly<Record<string, string>>, rootDir: string): FileStamps {
    const stamps = new FileStamps();
    for (const [file, stat] of Object.entries(saved)) stamps.stamps.set(path.resolve(rootDir, file), { stat, mtimeMs: 0 });
    return stamps;
  }

  /**
   * The stamps as text to keep for a later run, or undefined when one of them cannot say a change on its own: a file
   * saved within the last clock tick (its stamp keeps its text) or a failed build's folders.
   */
  saved(rootDir: string): Record<string, string> | undefined {
    if (this.folders.size) return undefined;
    const saved: Record<string, string> = {};
    for (const [file, stamp] of this.stamps) {
      if (stamp.content) return undefined;
      // Relative to the project: what is kept under .fw names no path of this machine (and survives a moved folder).
      saved[path.relative(rootDir, file)] = stamp.stat;
    }
    return saved;
  }

  /** The files stamped (not the folders `addFolders` added). */
  get files(): string[] {
    return [...this.stamps.keys()];
  }

  /**
   * After a build: keeps the stamps (taken before it) of the files it read again, stamps the files it read for the
   * first time (a new import) and forgets the files it no longer reads.
   */
  update(files: Iterable<string>): void {
    const read = new Set(files);
    this.cleanAt = undefined;
    for (const file of this.stamps.keys()) if (!read.has(file)) this.stamps.delete(file);
    for (const file of read) if (!this.stamps.has(file)) this.stamps.set(file, stampOf(file));
  }

  /**
   * After a failed build: also stamps the folders of its files, so creating the file an import misses (or a folder
   * on its way) counts as a change, although the failed build could not say which file it looked for.
   */
  addFolders(): void {
    this.cleanAt = undefined;
    for (const file of this.stamps.keys()) {
      const dir = path.dirname(file);
      if (!this.folders.has(dir)) this.folders.set(dir, stampOf(dir));
    }
  }

  /**
   * The first file that changed since it was stamped, or undefined. `seen` shares stat calls between several sets.
   * With `gate`, a file in a watched folder found unchanged at the gate's current count is not stat-checked again.
   */
  changed(seen?: Map<string, string>, gate?: WatchGate): string | undefined {
    const count = gate?.count;
    if (count !== undefined && count === this.cleanAt && gate!.trusted) return undefined;
    const coverage = { all: count !== undefined };
    const changed = changedIn(this.stamps, seen, gate, coverage) ?? (this.folders.size ? changedIn(this.folders, seen, gate, coverage) : undefined);
    // Every stamp verified at this count, each in a watched folder and none keeping its text (a save within the clock
    // tick): until the count moves, the next checks would find the same.
    if (changed === undefined && coverage.all) this.cleanAt = count;
    return changed;
  }
}

function changedIn(stamps: ReadonlyMap<string, Stamp>, seen: Map<string, string> | undefined, gate: WatchGate | undefined, coverage: { all: boolean }): string | undefined {
  const count = gate?.count;
  for (const [file, stamp] of stamps) {
    if (count !== undefined && stamp.verifiedAt === count && gate!.covers(path.dirname(file))) {
      // Past the clock tick a later save gets a later time: the text need not be kept (as below).
      if (stamp.content && Date.now() - stamp.mtimeMs >= RACY_MS) stamp.content = undefined;
      if (stamp.content) coverage.all = false;
      continue;
    }
    coverage.all = false;
    let now = seen?.get(file);
    if (now === undefined) {
      now = statOf(file);
      seen?.set(file, now);
    }
    if (now !== stamp.stat) return file;
    if (stamp.content) {
      // Same stat within a clock tick of the last save: the text tells. Past the tick, a later save gets a later time.
      const content = readOrUndefined(file);
      if (!content || !content.equals(stamp.content)) return file;
      if (Date.now() - stamp.mtimeMs >= RACY_MS) stamp.content = undefined;
    }
    if (count !== undefined) stamp.verifiedAt = count;
  }
  return undefined;
}
