import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { oneExchangeAtATime } from '@framework/data/pglite';
import { Database, sql } from '@framework/data';
import { migrate } from '@framework/data/migrations';
import { runTenancy } from '../../src/commands/tenancy.js';
import { writeStateFile } from '../../src/dev/state-file.js';
import { TenancyCommandError } from '../../src/errors.js';
import { copyExample } from '../dev/helpers.js';

describe('fw tenancy check', function () {
  this.timeout(120_000);
  let dir: string;
  let pglite: PGlite;
  let server: PGLiteSocketServer;
  let db: Database;
  let lines: string[];
  const out = (line: string) => lines.push(line);

  before(async () => {
    // Given the example app (multi-tenant) migrated on a database that a "running fw dev" (its state file) points at
    dir = copyExample();
    pglite = await PGlite.create();
    server = new PGLiteSocketServer({ db: oneExchangeAtATime(pglite), host: '127.0.0.1', port: 0, maxConnections: 5 });
    await server.start();
    const port = server.getServerConn().split(':').pop() as string;
    const env = { FW_DB_MAIN_HOST: '127.0.0.1', FW_DB_MAIN_PORT: port, FW_DB_MAIN_NAME: 'postgres', FW_DB_MAIN_SECRET_ARN: 'local' };
    writeStateFile(path.join(dir, '.fw'), { pid: process.pid, url: 'http://127.0.0.1:1', stage: 'dev', env } as Parameters<typeof writeStateFile>[1]);
    db = new Database({ databaseId: 'main', env, maxConnections: 1, logger: { warn: () => undefined } });
    await migrate(db, { dir: path.join(dir, 'migrations') });
  });
  after(async () => {
    await db?.end();
    await server?.stop();
    await pglite?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    lines = [];
  });

  it('exits 0 when every table with tenant_id is isolated, and 1 naming the table and the fix when one is not', async () => {
    expect(await runTenancy(['check'], { cwd: dir, out })).to.equal(0);
    expect(lines.at(-1)).to.contain('every table with tenant_id is isolated');
    await db.query(sql`CREATE TABLE notes (id int, tenant_id text)`);
    try {
      lines = [];
      expect(await runTenancy(['check'], { cwd: dir, out })).to.equal(1);
      expect(lines.join('\n')).to.contain('public.notes: has no policy on app.tenant_id.').and.contain('Fix:');
    } finally {
      await db.query(sql`DROP TABLE notes`);
    }
  });

  it('refuses anything but "check" with FW_ERR_TENANCY_COMMAND_BAD_ARGUMENT', async () => {
    const error = await runTenancy(['verify'], { cwd: dir, out }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TenancyCommandError).with.property('code', 'FW_ERR_TENANCY_COMMAND_BAD_ARGUMENT');
  });
});
