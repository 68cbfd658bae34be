import * as fs from 'node:fs';
import * as path from 'node:path';
import { watch } from 'chokidar';
import type { DevLogger } from './engines/engine.js';

export interface ProjectWatcher {
  close(): Promise<void>;
}

export interface WatchHandlers {
  /** A file under src/ changed: recompile and reload every handler. */
  onSourceChange(): Promise<void>;
  /** A file was added or removed, or the config changed: rebuild the app model first. */
  onStructureChange(): Promise<void>;
  readonly log: DevLogger;
}

const DEBUG = process.env.FW_DEV_DEBUG === '1';

/**
 * Watches `src/`, `config/` and `fw.config.ts`. Freshness rests on these events alone: a request never checks the
 * file system. chokidar reports files and folders added or removed and config edits; edits of files under `src/`
 * also come from Node's recursive `fs.watch`, because chokidar drops an in-place rewrite whose modification time its
 * stat check cannot tell from the previous one (seen on Linux: half of the rewrites 25 ms apart after a read).
 * Events of one burst (an editor's save) are handled once.
 */
export function watchProject(rootDir: string, handlers: WatchHandlers): ProjectWatcher {
  const targets = ['src', 'config', 'fw.config.ts', 'fw.config.mts'].map((p) => path.join(rootDir, p));
  const watcher = watch(targets, { ignoreInitial: true, ignored: (file) => file.includes(`${path.sep}node_modules${path.sep}`) || file.includes(`${path.sep}.fw${path.sep}`) });
  let structural = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const work = structural ? handlers.onStructureChange() : handlers.onSourceChange();
    structural = false;
    work.catch((error: Error) => handlers.log.error(`reload failed: ${error.stack ?? error.message}`));
  };
  const schedule = (isStructural: boolean, what: string) => {
    if (DEBUG) process.stderr.write(`[fw:debug] ${what}\n`);
    structural ||= isStructural;
    timer ??= setTimeout(flush, 2);
  };
  let sourceWatched = false;
  watcher.on('all', (event, file) => {
    const isSource = path.relative(rootDir, file).startsWith(`src${path.sep}`);
    // fs.watch reports edits under src/ first; chokidar's later report of the same edit would build twice.
    if (isSource && event === 'change' && sourceWatched) return;
    schedule(!isSource || event !== 'change', `chokidar ${event} ${file}`);
  });
  watcher.on('error', (error) => handlers.log.warn(`file watching: ${(error as Error).message}`));
  let sourceWatcher: fs.FSWatcher | undefined;
  try {
    sourceWatcher = fs.watch(path.join(rootDir, 'src'), { recursive: true }, (event, file) => {
      if (event === 'change') schedule(false, `fs.watch change ${file}`);
    });
    sourceWatcher.on('error', () => undefined);
    sourceWatched = true;
  } catch {
    // No src/ yet, or no recursive watching here: chokidar alone.
  }
  return {
    close: async () => {
      clearTimeout(timer);
      sourceWatcher?.close();
      await watcher.close();
    },
  };
}
