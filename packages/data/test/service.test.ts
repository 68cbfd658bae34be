import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { databaseEnv } from '@framework/core/names';
import { getService, resetService } from '@framework/runtime';
import { closeDatabases, connectionSettings, Database, DatabaseConfigError, getDatabase, sql } from '../src/index.js';
import { createMigrationHandler } from '../src/migrate-handler.js';
import { invokeMigrationFunction } from '../src/remote/index.js';
import { ENGINES, useEngine } from './support/engines.js';


describe('connection settings from the database intent variables', () => {
  const vars = databaseEnv('main-db');

  it('reads FW_DB_<ID>_* and uses user postgres without TLS for a local engine', async () => {
    const env = { [vars.host]: '127.0.0.1', [vars.port]: '5433', [vars.name]: 'app', [vars.secretArn]: 'local' };
    expect(await connectionSettings('main-db', env)).to.deep.equal({ host: '127.0.0.1', port: 5433, database: 'app', user: 'postgres', ssl: false });
  });

  it('names every missing variable', async () => {
    const error = await connectionSettings('main-db', { [vars.host]: 'h' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DatabaseConfigError).with.property('message').that.contains(vars.port).and.contains(vars.secretArn);
  });

  it('asks which database when there are several', () => {
    const env = { FW_DB_A_HOST: 'x', FW_DB_B_HOST: 'y' };
    expect(() => getDatabase(undefined, env)).to.throw(DatabaseConfigError, /A, B/);
    expect(() => getDatabase(undefined, {})).to.throw(DatabaseConfigError, /no database/);
  });
});

describe('service.db with several databases', () => {
  const vars = { FW_DB_A_HOST: '127.0.0.1', FW_DB_B_HOST: '127.0.0.1' };
  beforeEach(() => Object.assign(process.env, vars));
  afterEach(() => {
    for (const k of Object.keys(vars)) delete process.env[k];
    resetService();
  });

  it('throws naming the ids, and service.database(id) picks one', () => {
    const service = getService();
    let error: unknown;
    try {
      void service.db;
    } catch (e) {
      error = e;
    }
    expect(error).to.have.property('code', 'FW_ERR_SERVICE_EXTENSION');
    expect((error as Error).cause).to.be.instanceOf(DatabaseConfigError).with.property('message').that.contains('A, B');
    expect(service.database('b')).to.be.instanceOf(Database);
  });
});

const pglite = ENGINES[0] as (typeof ENGINES)[number];

describe('service.db in handlers (PGlite, as under fw dev)', () => {
  const server = useEngine(pglite);
  const vars = databaseEnv('main');
  const env: Record<string, string> = {};
  before(() => {
    const { port, database } = server().connection;
    Object.assign(env, { [vars.host]: '127.0.0.1', [vars.port]: String(port), [vars.name]: String(database), [vars.secretArn]: 'local' });
  });
  const saved = new Map<string, string | undefined>();
  beforeEach(() => {
    for (const [k, v] of Object.entries(env)) {
      saved.set(k, process.env[k]);
      process.env[k] = v;
    }
  });
  afterEach(async () => {
    await closeDatabases();
    resetService();
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('is the one database of the app, one pool reused across invocations', async () => {
    const service = getService();
    expect(service.db).to.be.instanceOf(Database);
    expect(service.db).to.equal(service.database('main'));
    expect((await service.db.one<{ x: number }>(sql`SELECT ${1}::int AS x`)).x).to.equal(1);
    resetService();
    // a new service object (next invocation) gets the same pool
    expect(getService().db).to.equal(service.db);
  });

  it('applies migrations through the migration function, for a direct invoke and a custom resource event', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-mh-'));
    try {
      writeFileSync(path.join(dir, '0001_notes.sql'), 'CREATE TABLE notes (id serial PRIMARY KEY, body text);\n');
      const handler = createMigrationHandler({ migrationsDir: dir, log: () => undefined });
      // when deployment creates the custom resource
      const created = await handler({ RequestType: 'Create', ResourceProperties: { DatabaseId: 'main', MigrationsHash: 'h1' } });
      expect(created).to.deep.equal({ PhysicalResourceId: 'fw-migrations-main', Data: { Applied: 1, AppliedFiles: '0001_notes.sql' } });
      // then a direct status invocation reports it applied, and a delete event changes nothing
      const status = await handler({ action: 'status' });
      expect(status).to.have.property('status').that.has.length(1);
      expect((status as unknown as { status: { state: string }[] }).status[0]?.state).to.equal('applied');
      await handler({ RequestType: 'Delete', PhysicalResourceId: 'fw-migrations-main', ResourceProperties: { DatabaseId: 'main' } });
      expect(await getDatabase('main').many(sql`SELECT * FROM notes`)).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('invoking the deployed migration function (AWS Lambda mocked: no cloud here)', () => {
  it('sends the command and returns the answer', async () => {
    const sent: unknown[] = [];
    const client = { send: async (command: { input: { FunctionName: string; Payload: Uint8Array } }) => { sent.push({ name: command.input.FunctionName, payload: JSON.parse(new TextDecoder().decode(command.input.Payload)) }); return { Payload: new TextEncoder().encode('{"database":"main","applied":["0001_a.sql"],"alreadyApplied":0}') }; } };
    const result = await invokeMigrationFunction({ functionName: 'acme-prod-migrate-main', command: { action: 'apply', database: 'main' }, client: client as never });
    expect(result).to.deep.equal({ database: 'main', applied: ['0001_a.sql'], alreadyApplied: 0 });
    expect(sent).to.deep.equal([{ name: 'acme-prod-migrate-main', payload: { action: 'apply', database: 'main' } }]);
  });

  it('turns a function error into FW_ERR_DATA_REMOTE_MIGRATION with the remote message', async () => {
    const client = { send: async () => ({ FunctionError: 'Unhandled', Payload: new TextEncoder().encode('{"errorType":"MigrationFailedError","errorMessage":"Migration 0002_x.sql failed"}') }) };
    const error = await invokeMigrationFunction({ functionName: 'f', command: {}, client: client as never }).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'FW_ERR_DATA_REMOTE_MIGRATION');
    expect((error as Error).message).to.contain('0002_x.sql');
  });
});
