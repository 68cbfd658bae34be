import { startApp, type TestApp } from '@framework/testing';

/**
 * The whole app for the tests under `tests/app/`: fw dev's server and engines started once for the run, inside the
 * test process (a free port, a data folder of its own under `.fw/test/`, a clock that only the tests move). The
 * hooks below are mocha's root hooks: they run once around the whole run (`before`/`after`) and before every test
 * (`beforeEach`: every database back to its migrated state, every queue emptied).
 */
let running: TestApp<any> | undefined;

before(async function () {
  // The first run of a project also prepares the database template it copies afterwards (seconds).
  this.timeout(180_000);
  running = await startApp();
});

beforeEach(async () => {
  await running?.resetData();
});

after(async () => {
  await running?.stop();
});

/** The running app (inside a test or a hook). */
export function app(): TestApp<any> {
  if (!running) throw new Error('the app is not started: use app() inside a test or a hook');
  return running;
}
