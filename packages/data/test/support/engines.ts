import { startNativePostgres } from './native-postgres.js';
import { startPglite, type RunningEngine } from './pglite-server.js';

export type { RunningEngine } from './pglite-server.js';

/** Both engines every suite runs on: PGlite through pglite-socket, and Debian's PostgreSQL server. */
export const ENGINES: readonly { readonly name: 'PGlite' | 'PostgreSQL'; start(): Promise<RunningEngine | string> }[] = [
  { name: 'PGlite', start: startPglite },
  { name: 'PostgreSQL', start: startNativePostgres },
];

/**
 * Starts the engine in a `before` hook; skips the suite with the reason when it cannot run here. Returns a getter.
 */
export function useEngine(engine: (typeof ENGINES)[number]): () => RunningEngine {
  let running: RunningEngine | undefined;
  before(async function () {
    this.timeout(90_000);
    const result = await engine.start();
    // Native PostgreSQL may be missing (or only runnable as root without a postgres user): skip, saying why.
    if (typeof result === 'string') {
      console.warn(`      skipped on ${engine.name}: ${result}`);
      this.skip();
    } else running = result;
  });
  after(async () => {
    await running?.stop();
    running = undefined;
  });
  return () => {
    if (!running) throw new Error(`${engine.name} is not running`);
    return running;
  };
}
