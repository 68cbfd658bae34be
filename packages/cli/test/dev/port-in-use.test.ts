import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { expect } from 'chai';
import { DevServer } from '../../src/dev/dev-server.js';
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
