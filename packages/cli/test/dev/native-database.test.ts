import * as fs from 'node:fs';
import { expect } from 'chai';
import { findOnPath } from '../../src/dev/engines/ports.js';
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
