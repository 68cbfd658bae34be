import * as fs from 'node:fs';
import * as path from 'node:path';
import { isHandlerFile } from '@framework/core';
import { RACY_MS, stampOf } from './file-stamps.js';
import type { WatchGate } from './watch-gate.js';

interface Folder {
  stamp: string;
  /** Listed within a clock tick of its last change: an entry added in that tick leaves `stamp` unchanged. */
  racy: boolean;
  /** The entries discovery looks at (handler files and folders), sorted; undefined when the folder is missing. */
  entries: string | undefined;
  /** The watch gate's count when a check last found the folder unchanged (see `WatchGate`). */
  verifiedAt?: number;
}

/** The entries of a folder that discovery sees (core's rules: no `_` or `.` names, no node_modules, handler files). */
function entriesOf(dir: string): string | undefined {
  let list: fs.Dirent[];
  try {
    list = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  return list
    .filter((e) => !e.name.startsWith('_') && !e.name.startsWith('.') && e.name !== 'node_modules' && (e.isDirectory() || isHandlerFile(e.name)))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort()
    .join('\n');
}

/**
 * The folders the app model is discovered from (routes, functions, queues, crons) and what discovery saw in them, so
 * a route file added, removed or renamed, in a new folder or not, is noticed by a stat of each folder. A folder whose
 * time changed but whose entries did not (a file saved with a rename, an editor's backup file) is not a change.
 */
export class FolderListing {
  private readonly folders = new Map<string, Folder>();
  /** The watch gate's count when a check found every folder verified and watched (see `FileStamps`). */
  private cleanAt?: number;

  /** Lists `roots` and every folder below them now. */
  constructor(roots: readonly string[]) {
    const walk = (dir: string) => {
      const { stat, mtimeMs } = stampOf(dir);
      const entries = entriesOf(dir);
      this.folders.set(dir, { stamp: stat, racy: Date.now() - mtimeMs < RACY_MS, entries });
      for (const entry of entries?.split('\n') ?? []) if (entry.endsWith('/')) walk(path.join(dir, entry.slice(0, -1)));
    };
    for (const root of roots) walk(root);
  }

  /**
   * The first folder whose discovered entries changed, or undefined. With `gate`, a watched folder found unchanged at
   * the gate's current count is not checked again.
   */
  changed(gate?: WatchGate): string | undefined {
    const count = gate?.count;
    // Every folder was verified at this count, each watched: until the count moves nothing here changed.
    if (count !== undefined && count === this.cleanAt && gate!.trusted) return undefined;
    let allCovered = count !== undefined;
    for (const [dir, folder] of this.folders) {
      if (count !== undefined && folder.verifiedAt === count && gate!.covers(dir)) continue;
      allCovered = false;
      const { stat, mtimeMs } = stampOf(dir);
      if (stat !== folder.stamp || folder.racy) {
        const entries = entriesOf(dir);
        if (entries !== folder.entries) return dir;
        folder.stamp = stat;
        folder.racy = Date.now() - mtimeMs < RACY_MS;
      }
      if (count !== undefined) folder.verifiedAt = count;
    }
    if (allCovered) this.cleanAt = count;
    return undefined;
  }
}
