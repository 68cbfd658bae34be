import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerResourceLimits } from '../limits/memory-limits.js';
import { FUNCTION_WORKER_URL, workerExecArgv } from './worker-entry.js';

/**
 * A function thread started as `fw dev` starts, before it loads its own modules: Node's bootstrap of the thread then
 * overlaps that loading (some 200 ms of the main thread) instead of following it. It waits, empty, for the function
 * host to adopt it as its first spare (`FunctionHostOptions.firstThread`), which hands it the functions' environment
 * and the packages to preload; a host that cannot use it (another memorySize) ends it.
 */
export interface EarlyThread {
  readonly worker: Worker;
  /** The memorySize its heap limits were set for: the previous run's spares' (a worker's limits are fixed at start). */
  readonly memorySize: number;
}

/** Where the host notes its spares' memorySize for the next run (in its build folder). */
const FIRST_THREAD_FILE = '_first-thread.json';

/**
 * Starts the early thread, with the memorySize the previous run's spares had (`recordFirstThread`); undefined when
 * there was no previous run in `buildDir` (nothing says which limits the thread needs).
 */
export function startEarlyThread(buildDir: string): EarlyThread | undefined {
  let memorySize: unknown;
  try {
    memorySize = (JSON.parse(fs.readFileSync(path.join(buildDir, FIRST_THREAD_FILE), 'utf8')) as { memorySize?: unknown }).memorySize;
  } catch {
    return undefined;
  }
  if (typeof memorySize !== 'number' || !Number.isInteger(memorySize) || memorySize <= 0) return undefined;
  // No environment yet: the host sends the functions' own with the preload (`PreloadMessage`).
  const worker = new Worker(FUNCTION_WORKER_URL, { workerData: { preloadByMessage: true }, env: {}, execArgv: workerExecArgv(), resourceLimits: workerResourceLimits(memorySize), stdout: true, stderr: true });
  // Never what keeps the process alive (a start that fails before the host adopts it).
  worker.unref();
  return { worker, memorySize };
}

/** Notes the spares' memorySize in `buildDir` for the next run's early thread. Only an accelerator: failures are ignored. */
export function recordFirstThread(buildDir: string, memorySize: number): void {
  const file = path.join(buildDir, FIRST_THREAD_FILE);
  const text = JSON.stringify({ memorySize });
  try {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
    fs.mkdirSync(buildDir, { recursive: true });
    fs.writeFileSync(file, text);
  } catch {
    // The next run starts its first thread after loading, as without this.
  }
}
