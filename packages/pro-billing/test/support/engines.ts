// The data package's engine helpers (PGlite through pglite-socket, Debian's PostgreSQL server started by the test).
export { ENGINES, useEngine, type RunningEngine } from '../../../data/test/support/engines.js';
