import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * File systems whose change events Linux delivers for every change made on this machine (inotify): ext2-4, XFS,
 * Btrfs, tmpfs, overlayfs (containers), F2FS, ZFS, bcachefs. Network and FUSE file systems (NFS, SMB, 9p under WSL,
 * a container's bind mount from another OS) are left out: changes made by another machine send no event.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0xf2f52010, 0x2fc12fc1, 0xca451a4e]);

/** Whether change events can be trusted for the files under `dir`: Linux, on a local file system. */
export function eventsReliableFor(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return LOCAL_FILE_SYSTEMS.has(fs.statfsSync(dir).type);
  } catch {
    return false;
  }
}

/**
 * What the project's folder watches (`watchProject`) say, for `Freshness`: a count of every raw change event, taken
 * synchronously as each arrives, and which folders are watched. A file `stat`-checked unchanged when the count was
 * N, in a watched folder, is still unchanged while the count is N: any write, rename, create or delete in that folder
 * raises it. So a request checks only what the watches do not cover, or what changed since.
 *
 * Sound only once the events queued before a request arrived are delivered: the kernel queues a folder's event during
 * the save itself, before the request that follows the save is sent, and the event loop hands every ready event of a
 * poll phase to its callback before that phase ends. A check that relies on the count therefore runs after the poll
 * phase its request arrived in (`Freshness.beforeRequest` waits for the check phase).
 */
export class WatchGate {
  private events = 0;
  private trustedNow = false;
  private readonly watched = new Set<string>();

  /** Raised by every change event, and whenever trust begins or ends (so older checks never count as current). */
  get count(): number {
    return this.events;
  }

  /** Whether the watches are up and their events can be relied on. */
  get trusted(): boolean {
    return this.trustedNow;
  }

  /** The watches are up (every folder of the tree watched): from now on a check can rely on the count. */
  trust(): void {
    this.events++;
    this.trustedNow = true;
  }

  /** A watch failed or ended (an error, too many watches, the watcher closed): every check stats again. */
  distrust(): void {
    this.events++;
    this.trustedNow = false;
  }

  /** A change event in a watched folder. */
  changed(): void {
    this.events++;
  }

  watching(dir: string): void {
    this.watched.add(path.resolve(dir));
  }

  unwatching(dir: string): void {
    this.watched.delete(path.resolve(dir));
    this.events++;
  }

  /** Whether changes to the entries of `dir` (its files, and entries added or removed) raise the count. */
  covers(dir: string): boolean {
    return this.trustedNow && this.watched.has(dir);
  }
}
