import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { oneExchangeAtATime } from '@framework/data/pglite';
import { databaseEnv } from '@framework/core';
import pg from 'pg';
import { parseMigrateArguments, runMigrate } from '../../src/commands/migrate.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const CONFIG = `import { defineApp } from '@framework/core';
export default defineApp({
  base: { name: 'notes', region: 'eu-west-1' },
  security: { scopes: {} },
  envs: { dev: { preset: 'free' }, prod: { preset: 'free' } },
  infrastructure: { databases: [{ id: 'main', migrationsDir: 'db/migrations' }] },
});
`;

/** A project folder with fw.config.ts; packages resolve through a link to the repository's node_modules. */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-migrate-cmd-'));
  writeFileSync(path.join(dir, 'fw.config.ts'), CONFIG);
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  mkdirSync(path.join(dir, 'db', 'migrations'), { recursive: true });
  writeFileSync(path.join(dir, 'db', 'migrations', '0001_notes.sql'), 'CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL);\n-- down\nDROP TABLE notes;\n');
  return dir;
}

describe('fw migrate', () => {
  let root: string;
  let pglite: PGlite;
  let server: PGLiteSocketServer;
  let port: number;
  let lines: string[];
  const out = (line: string) => lines.push(line);

  before(async () => {
    pglite = await PGlite.create();
    server = new PGLiteSocketServer({ db: oneExchangeAtATime(pglite), host: '127.0.0.1', port: 0, maxConnections: 5 });
    await server.start();
    port = Number(server.getServerConn().split(':').pop());
  });
  after(async () => {
    await server.stop();
    await pglite.close();
  });
  beforeEach(() => {
    root = project();
    lines = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** What a running `fw dev` leaves in .fw/dev/state.json (how `fw migrate` finds its database): this process stands in for it. */
  function fakeDevServer(): void {
    const v = databaseEnv('main');
    mkdirSync(path.join(root, '.fw', 'dev'), { recursive: true });
    const env = { [v.host]: '127.0.0.1', [v.port]: String(port), [v.name]: 'postgres', [v.secretArn]: 'local' };
    writeFileSync(path.join(root, '.fw', 'dev', 'state.json'), JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:1', stage: 'dev', env }));
  }

  it('says clearly that fw dev is not running', async () => {
    const error = await runMigrate([], { cwd: root, out }).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'FW_ERR_DATA_DEV_NOT_RUNNING');
    expect((error as Error).message).to.contain('fw dev');
  });

  it('applies pending migrations to the fw dev database, lists them, and creates the next file', async () => {
    // given a running fw dev
    fakeDevServer();
    // when status, apply, status run
    expect(await runMigrate(['status'], { cwd: root, out })).to.equal(0);
    expect(lines.join('\n')).to.match(/pending\s+0001_notes\.sql/);
    lines = [];
    expect(await runMigrate([], { cwd: root, out })).to.equal(0);
    expect(lines).to.include('applied 0001_notes.sql');
    lines = [];
    await runMigrate(['status'], { cwd: root, out });
    expect(lines.join('\n')).to.match(/applied\s+0001_notes\.sql/).and.contain('1 applied, 0 pending');
    // then the table exists in the database fw dev serves
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      expect((await client.query('SELECT count(*)::int AS n FROM notes')).rows[0]).to.deep.equal({ n: 0 });
    } finally {
      await client.end();
    }
    // and create writes the next number into the database's migrations folder
    await runMigrate(['create', 'add tags'], { cwd: root, out });
    expect(readdirSync(path.join(root, 'db', 'migrations')).sort()).to.deep.equal(['0001_notes.sql', '0002_add_tags.sql']);
    // and down rolls the newest applied one back
    lines = [];
    await runMigrate(['down'], { cwd: root, out });
    expect(lines).to.include('rolled back 0001_notes.sql');
  });

  it('refuses bad arguments with usage', () => {
    expect(() => parseMigrateArguments(['create'])).to.throw(/needs one name/);
    expect(() => parseMigrateArguments(['frobnicate'])).to.throw(/Unknown subcommand/);
    expect(() => parseMigrateArguments(['down', '--stage', 'prod'])).to.throw(/local project only/);
    expect(parseMigrateArguments(['status', '--stage=prod', '--db', 'main'])).to.deep.include({ action: 'status', stage: 'prod', db: 'main' });
    expect(existsSync(root)).to.equal(true);
  });

  describe('--stage (AWS Lambda mocked by a local endpoint: no cloud here)', () => {
    let lambda: Server;
    let invocations: { path: string; body: unknown }[];
    let reply: { headers: Record<string, string>; body: unknown };
    const saved: Record<string, string | undefined> = {};

    before(async () => {
      lambda = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          invocations.push({ path: req.url ?? '', body: JSON.parse(body || 'null') });
          res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
          res.end(JSON.stringify(reply.body));
        });
      });
      await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
      const vars = { AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };
      for (const [k, v] of Object.entries(vars)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
    });
    after(async () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await new Promise((resolve) => lambda.close(resolve));
    });
    beforeEach(() => {
      invocations = [];
    });

    it('invokes the stage\'s migration function and prints what it applied', async () => {
      reply = { headers: {}, body: { database: 'main', applied: ['0001_notes.sql'], alreadyApplied: 0 } };
      expect(await runMigrate(['--stage', 'prod'], { cwd: root, out })).to.equal(0);
      expect(invocations).to.deep.equal([{ path: '/2015-03-31/functions/notes-prod-migrate-main/invocations', body: { action: 'apply', database: 'main' } }]);
      expect(lines).to.include('applied 0001_notes.sql to main (prod)');
    });

    it('reports the remote failure with its message', async () => {
      reply = { headers: { 'x-amz-function-error': 'Unhandled' }, body: { errorType: 'MigrationFailedError', errorMessage: 'Migration 0001_notes.sql failed and was rolled back' } };
      const error = await runMigrate(['--stage', 'prod'], { cwd: root, out }).catch((e: unknown) => e);
      expect(error).to.have.property('code', 'FW_ERR_DATA_REMOTE_MIGRATION');
      expect((error as Error).message).to.contain('0001_notes.sql failed');
    });
  });
});
