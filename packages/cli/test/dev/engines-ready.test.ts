import * as fs from 'node:fs';
import { expect } from 'chai';
import { DevServer } from '../../src/dev/dev-server.js';
import { copyExample, eventually, json, startDev, token, type RunningDev } from './helpers.js';

/**
 * `fw dev` serves before its engines are ready (the embedded database takes seconds to boot at load), and a handler
 * that may open a database connection waits for the database to be up and migrated: the first request after the
 * serving line finds the migrated tables (it used to be able to get 500 "relation tasks does not exist").
 */
describe('fw dev: database routes wait for the engines (example app)', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  let dev: RunningDev | undefined;
  let server: DevServer | undefined;

  afterEach(async () => {
    await dev?.stop();
    dev = undefined;
    await server?.stop();
    server = undefined;
  });
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const fresh = () => {
    const dir = copyExample();
    dirs.push(dir);
    return dir;
  };

  for (const [label, args] of [['the default database engine', []], ['the embedded database engine', ['--engine', 'databases=embedded']]] as const) {
    it(`answers GET /tasks (a table a migration creates) with 200 right after the serving line (waiting for the migrations), with ${label}`, async () => {
      // Given a fresh copy of the example app (no .fw: the database is created and migrated on this start)
      const dir = fresh();
      // When fw dev prints its serving line and a route reading the migrated table is called at once
      dev = await startDev(dir, args);
      const bearer = await token(dev.url, ['tasks:read']);
      const response = await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${bearer}` } });
      // Then the table is there
      const body = await json(response);
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body).to.deep.equal({ tasks: [] });
      // and the migrations were reported applied before it answered
      // (the line may reach this process a moment after the answer: both come through pipes)
      await eventually(async () => (/databases: main: .*applied/.test(dev!.output()) ? true : undefined), 10_000, 'the migrations line');
    });
  }

  it('answers 503 ENGINE_NOT_READY naming the engine while it is past its wait, then serves the route', async () => {
    // Given a dev server told to wait for its engines 1 ms only (the database takes longer to start and migrate)
    const dir = fresh();
    const logged: string[] = [];
    const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    server = await DevServer.start({ rootDir: dir, port: 0, engines: { databases: 'embedded' }, engineReadyTimeoutMs: 1, log, print: () => undefined });
    const bearer = await token(server.url, ['tasks:read']);
    // When a route is called at once
    const early = await fetch(`${server.url}/tasks`, { headers: { authorization: `Bearer ${bearer}` } });
    // Then it is held off with a clear answer naming the engine, not a handler failing on a missing table
    const earlyBody = await json(early);
    expect(early.status, JSON.stringify(earlyBody)).to.equal(503);
    expect(earlyBody.error.code).to.equal('ENGINE_NOT_READY');
    expect(earlyBody.error.message).to.contain('databases engine');
    expect(logged.join('\n')).to.match(/not ready after/);
    // and once the database is migrated the route serves
    const ready = await eventually(async () => {
      const response = await fetch(`${server!.url}/tasks`, { headers: { authorization: `Bearer ${bearer}` } });
      return response.status === 503 ? undefined : response;
    }, 60_000, 'the database engine');
    expect(ready.status).to.equal(200);
  });
});
