import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What a file or folder looks like on disk: its inode, size, modification and change times. Any save changes it: an
 * in-place write (mtime), a rename over it (a new inode), `git checkout` and a delete + re-create (a new inode and
 * times); a folder's times change when an entry is added, removed or renamed in it.
 */
export function stampOf(file: string): string {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : 'missing';
}

/**
 * The stamps of the files a build read, taken before it read them: a file saved while the build ran then differs
 * from its stamp, so the next check builds again instead of trusting a build that may have read the old text.
 */
export class FileStamps {
  private readonly stamps = new Map<string, string>();
  private readonly folders = new Map<string, string>();

  /** Stamps `files` now. */
  constructor(files: Iterable<string> = []) {
    for (const file of files) this.stamps.set(file, stampOf(file));
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
    for (const file of this.stamps.keys()) if (!read.has(file)) this.stamps.delete(file);
    for (const file of read) if (!this.stamps.has(file)) this.stamps.set(file, stampOf(file));
  }

  /**
   * After a failed build: also stamps the folders of its files, so creating the file an import misses (or a folder
   * on its way) counts as a change, although the failed build could not say which file it looked for.
   */
  addFolders(): void {
    for (const file of this.stamps.keys()) {
      const dir = path.dirname(file);
      if (!this.folders.has(dir)) this.folders.set(dir, stampOf(dir));
    }
  }

  /** The first file that changed since it was stamped, or undefined. `seen` shares stat calls between several sets. */
  changed(seen?: Map<string, string>): string | undefined {
    return changedIn(this.stamps, seen) ?? (this.folders.size ? changedIn(this.folders, seen) : undefined);
  }
}

function changedIn(stamps: ReadonlyMap<string, string>, seen: Map<string, string> | undefined): string | undefined {
  for (const [file, stamp] of stamps) {
    let now = seen?.get(file);
    if (now === undefined) {
      now = stampOf(file);
      seen?.set(file, now);
    }
    if (now !== stamp) return file;
  }
  return undefined;
}
