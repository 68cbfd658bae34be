import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { DevLogger } from './engines/engine.js';
import type { WatchGate } from './freshness/watch-gate.js';

export interface ProjectWatcher {
  close(): Promise<void>;
}

export interface WatchHandlers {
  /** Something under the project changed: check what, and rebuild it. */
  onChange(): Promise<void>;
  readonly log: DevLogger;
}

const DEBUG = process.env.FW_DEV_DEBUG === '1';

/**
 * Watches `src/`, `config/` and `fw.config.ts` to rebuild before the next request asks. Only an accelerator: each
 * request checks the files itself (`Freshness`), because file events come late, coalesced or not at all. Every event
 * starts the same check, which rebuilds only what changed, so duplicate events cost a few `stat` calls.
 *
 * Two sources: chokidar, and Node's `fs.watch` on every folder (not recursive, not on files). A watch on a file
 * follows its inode, so it goes quiet once an atomic save (`sed -i`, JetBrains' safe write, formatters) replaced the
 * file by a rename; chokidar's own file watches then missed later saves, and so did Node's recursive `fs.watch`. A
 * folder's watch reports writes to, and renames onto, any file in it, whatever its inode.
 */
export function watchProject(rootDir: string, handlers: WatchHandlers, gate?: WatchGate): ProjectWatcher {
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    handlers.onChange().catch((error: Error) => handlers.log.error(`reload failed: ${error.stack ?? error.message}`));
  };
  // Events of one burst (an editor's save) start one check.
  const schedule = (what: string) => {
    if (DEBUG) process.stderr.write(`[fw:debug] ${what}\n`);
    timer ??= setTimeout(flush, 2);
  };
  const targets = ['src', 'config', 'fw.config.ts', 'fw.config.mts'].map((p) => path.join(rootDir, p));
  // chokidar is imported here, not when fw dev loads (the watching starts after the first answer): the folder watches
  // below are on at once, chokidar's a moment later.
  let closed = false;
  const watcher: Promise<FSWatcher | undefined> = import('chokidar').then(({ watch }) => {
    if (closed) return undefined;
    const chokidar = watch(targets, { ignoreInitial: true, ignored: (file) => file.includes(`${path.sep}node_modules${path.sep}`) || file.includes(`${path.sep}.fw${path.sep}`) });
    chokidar.on('all', (event, file) => schedule(`chokidar ${event} ${file}`));
    chokidar.on('error', (error) => handlers.log.warn(`file watching: ${(error as Error).message}`));
    return chokidar;
  });
  watcher.catch((error: Error) => handlers.log.warn(`file watching: ${error.message}`));
  const folders = new FolderWatchers(schedule, gate);
  folders.add(path.join(rootDir, 'src'));
  folders.add(path.join(rootDir, 'config'));
  // The project folder itself: only for the config file, and for src/ or config/ appearing.
  const root = watchFolder(rootDir, (_event, name) => {
    // Any file of the project folder (fw.config.ts, package.json, tsconfig.json) may be an input.
    gate?.changed();
    if (name === 'src' || name === 'config') folders.add(path.join(rootDir, name));
    if (name?.startsWith('fw.config.') || name === 'src' || name === 'config') schedule(`fs.watch ${name}`);
  }, gate);
  if (root) gate?.watching(rootDir);
  return {
    close: async () => {
      gate?.distrust();
      clearTimeout(timer);
      root?.close();
      folders.close();
      closed = true;
      await (await watcher.catch(() => undefined))?.close();
    },
  };
}

function watchFolder(dir: string, listener: (event: string, name: string | undefined) => void, gate?: WatchGate): fs.FSWatcher | undefined {
  try {
    const watcher = fs.watch(dir, (event, name) => listener(event, name ?? undefined));
    watcher.on('error', () => {
      // Its events end here: the requests stat this folder's files again.
      gate?.unwatching(dir);
      watcher.close();
    });
    return watcher;
  } catch {
    // Missing (not created yet), or not readable: the request-time check still covers it.
    return undefined;
  }
}

/** An `fs.watch` per folder of a tree, following folders as they are created and removed. */
class FolderWatchers {
  private readonly watchers = new Map<string, fs.FSWatcher>();

  constructor(
    private readonly onEvent: (what: string) => void,
    private readonly gate?: WatchGate,
  ) {}

  /** Watches `dir` and every folder below it (but dot folders and node_modules). */
  add(dir: string): void {
    if (this.watchers.has(dir)) return;
    const watcher = watchFolder(dir, (event, name) => {
      // Counted at once (the check of a request sent after this save relies on it), before anything else runs.
      this.gate?.changed();
      this.onEvent(`fs.watch ${event} ${path.join(dir, name ?? '')}`);
      // A folder created or moved in needs its own watch; a removed one's watch is dropped.
      if (event === 'rename') {
        if (fs.existsSync(dir)) this.addChildren(dir);
        else this.remove(dir);
      }
    }, this.gate);
    if (!watcher) return;
    this.watchers.set(dir, watcher);
    this.gate?.watching(dir);
    this.addChildren(dir);
  }

  private addChildren(dir: string): void {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') this.add(path.join(dir, entry.name));
    // Folders removed below: their watches end.
    for (const watched of [...this.watchers.keys()]) if (path.dirname(watched) === dir && !fs.existsSync(watched)) this.remove(watched);
  }

  private remove(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
    this.gate?.unwatching(dir);
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
