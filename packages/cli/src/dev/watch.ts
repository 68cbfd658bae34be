import * as fs from 'node:fs';
import * as path from 'node:path';
import { watch } from 'chokidar';
import type { DevLogger } from './engines/engine.js';

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
 * chokidar reports files and folders added or removed and edits, also after a file was replaced by a rename (an
 * atomic save: `sed -i`, JetBrains' safe write, formatters); Node's recursive `fs.watch` reports in-place edits
 * under `src/` sooner, but loses a file once it was replaced by a rename, so it never stands alone.
 */
export function watchProject(rootDir: string, handlers: WatchHandlers): ProjectWatcher {
  const targets = ['src', 'config', 'fw.config.ts', 'fw.config.mts'].map((p) => path.join(rootDir, p));
  const watcher = watch(targets, { ignoreInitial: true, ignored: (file) => file.includes(`${path.sep}node_modules${path.sep}`) || file.includes(`${path.sep}.fw${path.sep}`) });
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
  watcher.on('all', (event, file) => schedule(`chokidar ${event} ${file}`));
  watcher.on('error', (error) => handlers.log.warn(`file watching: ${(error as Error).message}`));
  let sourceWatcher: fs.FSWatcher | undefined;
  try {
    sourceWatcher = fs.watch(path.join(rootDir, 'src'), { recursive: true }, (event, file) => schedule(`fs.watch ${event} ${file}`));
    sourceWatcher.on('error', () => undefined);
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
