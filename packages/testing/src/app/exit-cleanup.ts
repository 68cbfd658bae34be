import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeDataFolder } from '../data/memory-folder.js';

/** Data folders of apps still running in this process, removed (and their servers killed) if it exits first. */
const running = new Set<string>();
let installed = false;

/**
 * When the test process exits without `stop()` (mocha's `--exit`, a crash, Ctrl-C), what would outlive it is killed
 * synchronously: a native `postgres` (its pid is in the cluster's `postmaster.pid`) and the app's data folder. The
 * dev server's threads and the PGlite child die with the process (the child exits when its IPC channel closes).
 */
export function cleanUpOnExit(dataDir: string): () => void {
  running.add(dataDir);
  if (!installed) {
    installed = true;
    process.once('exit', () => {
      for (const dir of running) removeSync(dir);
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        for (const dir of running) removeSync(dir);
        // The default action, now that the listener that replaced it has run.
        process.kill(process.pid, signal);
      });
    }
  }
  return () => running.delete(dataDir);
}

function removeSync(dataDir: string): void {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'databases', 'native', 'postmaster.pid'), 'utf8').split('\n')[0]);
    // SIGQUIT: postgres's immediate shutdown (children included), which a process about to exit can afford.
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // No native server, or it is gone already.
  }
  removeDataFolder(dataDir);
}
