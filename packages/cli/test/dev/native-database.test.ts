import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { databaseEnv, migrationFunctionName, type DatabaseDefinition } from '@framework/core';
import { nativePostgres } from '../../src/dev/engines/postgres-backends.js';
import { findOnPath, freePort } from '../../src/dev/engines/ports.js';
import { copyExample, eventually, json, startDev, token, type RunningDev } from './helpers.js';

describe('fw dev with the native database engine (postgres on PATH)', function () {
  this.timeout(90_000);
  let dir: string;
  let dev: RunningDev | undefined;

  before(function () {
    // Needs PostgreSQL's server binaries (Debian's postgresql package); the embedded engine is tested elsewhere.
    if (!findOnPath('postgres') || !findOnPath('initdb')) this.skip();
    dir = copyExample();
  });
  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('initializes a cluster under .fw/, serves the app on it, and keeps data across a restart', async () => {
    dev = await startDev(dir, ['--engine', 'databases=native']);
    const write = await token(dev.url, ['tasks:read', 'tasks:write']);
    const created = await eventually(async () => {
      const response = await fetch(`${dev!.url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${write}` }, body: '{"title":"on postgres"}' });
      return response.status === 201 ? json(response) : undefined;
    }, 60_000, 'the native database');
    expect(dev.output()).to.contain('postgres on PATH');
    expect(fs.existsSync(`${dir}/.fw/databases/native/PG_VERSION`)).to.equal(true);
    await dev.stop();
    dev = await startDev(dir, ['--engine', 'databases=native']);
    const read = await token(dev.url, ['tasks:read']);
    const listed = await eventually(async () => {
      const response = await fetch(`${dev!.url}/tasks`, { headers: { authorization: `Bearer ${read}` } });
      return response.status === 200 ? json(response) : undefined;
    }, 30_000, 'the restarted server');
    expect(listed.tasks.map((t: { id: string }) => t.id)).to.include(created.id);
  });
});

/**
 * postgres binds the port it is given itself, a moment after it was found free: when something took it meanwhile, the
 * engine tries another free port instead of failing `fw dev`'s start.
 */
describe('the native database engine on a port taken after it was found free', function () {
  this.timeout(120_000);
  const database = { id: 'main', engine: 'postgres', databaseName: 'main', migrationsDir: 'migrations', migrationFunctionName: migrationFunctionName('notes', 'dev', 'main'), variables: databaseEnv('main') } as DatabaseDefinition;
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  let dataDir: string;
  let holder: net.Server;
  const held = new Set<net.Socket>();
  let taken: number;

  before(async function () {
    if (!findOnPath('postgres') || !findOnPath('initdb')) this.skip();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-native-port-'));
    // Accepts and never answers, as a server that is not postgres would.
    holder = net.createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    taken = (holder.address() as net.AddressInfo).port;
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    if (holder) await new Promise<void>((resolve) => holder.close(() => resolve()));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on the next free port, and serves there', async () => {
    const picked: number[] = [];
    const backend = nativePostgres(async (host) => {
      const port = picked.length === 0 ? taken : await freePort(host);
      picked.push(port);
      return port;
    });
    const running = await backend.start([database], dataDir, '127.0.0.1', log);
    try {
      expect(picked[0]).to.equal(taken);
      expect(picked, 'the taken port was the only one tried').to.have.length(2);
      expect(running.ports.get('main')).to.equal(picked[1]);
      const client = new pg.Client({ host: '127.0.0.1', port: running.ports.get('main')!, user: 'postgres', database: 'main' });
      await client.connect();
      try {
        expect((await client.query('SELECT 1 AS one')).rows).to.deep.equal([{ one: 1 }]);
      } finally {
        await client.end();
      }
    } finally {
      await running.stop();
    }
  });

  it('gives up after three taken ports, with what postgres said', async () => {
    const backend = nativePostgres(async () => taken);
    const error = await backend.start([database], dataDir, '127.0.0.1', log).then(
      async (running) => (await running.stop(), undefined),
      (e: unknown) => e as Error,
    );
    expect(error, 'started on a taken port').to.not.equal(undefined);
    expect(error!.message).to.match(/could not bind|Address already in use/i);
  });
});
