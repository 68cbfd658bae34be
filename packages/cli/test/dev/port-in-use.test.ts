import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { expect } from 'chai';
import { DevServer } from '../../src/dev/dev-server.js';
import { PortReservation } from '../../src/dev/engines/ports.js';
import { FW_BIN, copyExample } from './helpers.js';

/** A taken port is reported first, before `fw dev` loads the app or starts an engine, with the port and the fix. */
describe('fw dev on a port that is taken', function () {
  this.timeout(60_000);
  let dir: string;
  let holder: net.Server;
  let port: number;

  beforeEach(async () => {
    dir = copyExample();
    holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    port = (holder.address() as net.AddressInfo).port;
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('DevServer.start throws FW_ERR_DEV_PORT_IN_USE naming the port and --port, before anything starts', async () => {
    const error = await DevServer.start({ rootDir: dir, port, engines: { databases: 'embedded' }, print: () => undefined }).then(
      (server) => server.stop().then(() => undefined),
      (e: unknown) => e as { code?: string; message: string },
    );
    expect(error, 'start succeeded on a taken port').to.not.equal(undefined);
    expect(error!.code).to.equal('FW_ERR_DEV_PORT_IN_USE');
    expect(error!.message).to.contain(`port ${port}`).and.to.contain('--port');
    // Nothing was started: the engines and the config build write under .fw/ first.
    expect(fs.existsSync(path.join(dir, '.fw')), '.fw/ was created: engines or the config build ran first').to.equal(false);
  });

  it('`fw dev --port <taken>` exits 1 with that message', () => {
    const result = spawnSync(process.execPath, [FW_BIN, 'dev', '--port', String(port)], { cwd: dir, encoding: 'utf8', timeout: 50_000 });
    expect(result.status, result.stdout + result.stderr).to.equal(1);
    expect(result.stderr).to.contain(`port ${port} on 127.0.0.1 is in use`).and.to.contain('--port');
    expect(fs.existsSync(path.join(dir, '.fw'))).to.equal(false);
  });
});

/** Tries to listen on `port` once: whether it could (and lets it go at once). */
function couldListen(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * `fw dev` knows its URL before it listens and starts its engines in between: the port is held all that time, so
 * nothing else (another server's listen(0), an outgoing connection's local end) takes it meanwhile.
 */
describe('fw dev holds its port from the start until it listens', function () {
  this.timeout(120_000);

  it('PortReservation: held until released (any free port for 0); release is safe twice; nothing to hand over after', async () => {
    const reservation = await PortReservation.take('127.0.0.1', 0);
    expect(reservation.port).to.be.greaterThan(0);
    expect(await couldListen(reservation.port), 'listened on a held port').to.equal(false);
    await reservation.release();
    await reservation.release();
    expect(() => reservation.handOver()).to.throw(/already released/);
    expect(await couldListen(reservation.port), 'the released port is still held').to.equal(true);
  });

  it('no one else can listen on the port while DevServer.start runs, and the server then serves on it', async () => {
    const dir = copyExample();
    const port = await PortReservation.take('127.0.0.1', 0).then(async (r) => (await r.release(), r.port));
    let settled = false;
    const starting = DevServer.start({ rootDir: dir, port, engines: { databases: 'embedded' }, print: () => undefined, log: { info() {}, warn() {}, error() {} }, typecheck: false });
    void starting.then(
      () => (settled = true),
      () => (settled = true),
    );
    let probes = 0;
    let taken = 0;
    // The first probe can run before start() took the port: start() holds it within its first awaits. From then on the
    // port is never free: the server listens on the socket that held it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    while (!settled) {
      probes++;
      if (await couldListen(port)) taken++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const server = await starting;
    try {
      expect(probes, 'start() was over before any probe: nothing was tested').to.be.greaterThan(5);
      expect(taken, `${taken} of ${probes} probes could listen on the port while fw dev started`).to.equal(0);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).to.equal(200);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await couldListen(port), 'the port is still held after stop()').to.equal(true);
  });
});
