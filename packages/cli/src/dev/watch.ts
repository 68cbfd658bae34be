import * as path from 'node:path';
import type { AppDefinition } from '@framework/core';
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

/**
 * Watches `src/`, `config/` and `fw.config.ts` with chokidar. Freshness rests on these events alone: a request never
 * checks the file system. Events of one burst (an editor's save) are handled once.
 */
export function watchProject(rootDir: string, _app: AppDefinition, handlers: WatchHandlers): ProjectWatcher {
  const targets = ['src', 'config', 'fw.config.ts', 'fw.config.mts'].map((p) => path.join(rootDir, p));
  const watcher = watch(targets, { ignoreInitial: true, ignored: (file) => file.includes(`${path.sep}node_modules${path.sep}`) || file.includes(`${path.sep}.fw${path.sep}`) });
  let structural = false;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const work = structural ? handlers.onStructureChange() : handlers.onSourceChange();
    structural = false;
    pending = false;
    work.catch((error: Error) => handlers.log.error(`reload failed: ${error.stack ?? error.message}`));
  };
  watcher.on('all', (event, file) => {
    const relative = path.relative(rootDir, file);
    const isSource = relative.startsWith(`src${path.sep}`);
    if (!isSource || event !== 'change') structural = true;
    pending = true;
    timer ??= setTimeout(flush, 2);
  });
  watcher.on('error', (error) => handlers.log.warn(`file watching: ${(error as Error).message}`));
  return {
    close: async () => {
      clearTimeout(timer);
      void pending;
      await watcher.close();
    },
  };
}
