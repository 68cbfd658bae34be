import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { copyExample, json, startDev, token, type RunningDev } from './helpers.js';

/**
 * Functions loaded once the database is up talk to its own port: their queries do not pass through the placeholder
 * port on the dev server's main thread, which keeps forwarding for other clients (the state file names it).
 */
describe('fw dev: functions reach the database on its own port once it is ready (embedded engine)', function () {
  this.timeout(90_000);
  let dir: string;
  let dev: RunningDev | undefined;

  before(() => {
    dir = copyExample({ 'src/routes/db-port/get.ts': `export const main = async () => ({ statusCode: 200, body: JSON.stringify({ port: process.env.FW_DB_MAIN_PORT }) });\n` });
  });
  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("gives functions the engine's port, serves the app through it, and keeps the published port forwarding", async () => {
    // Given fw dev serving the example on the embedded engine
    dev = await startDev(dir, ['--engine', 'databases=embedded']);
    const state = JSON.parse(fs.readFileSync(path.join(dir, '.fw', 'dev', 'state.json'), 'utf8')) as { env: Record<string, string> };
    const published = Number(state.env.FW_DB_MAIN_PORT);
    // and the database ready (a route reading a table waits for it; the db-port route imports no database client, so
    // it would be answered at once, with the published port, while the database still boots)
    const bearer = await token(dev.url, ['tasks:read', 'tasks:write']);
    expect((await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${bearer}` } })).status).to.equal(200);
    // When a function reads the database's port
    const seen = Number((await json(await fetch(`${dev.url}/db-port`))).port);
    // Then it is another port than the published one, and the database itself answers on it
    expect(seen).to.be.a('number').and.not.equal(published);
    const direct = new pg.Client({ host: '127.0.0.1', port: seen, user: 'postgres', database: state.env.FW_DB_MAIN_NAME });
    await direct.connect();
    try {
      expect((await direct.query('SELECT 1 AS one')).rows).to.deep.equal([{ one: 1 }]);
    } finally {
      await direct.end();
    }
    // and the app's routes work through it
    const created = await fetch(`${dev.url}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: '{"title":"direct"}' });
    expect(created.status, JSON.stringify(await created.clone().json())).to.equal(201);
    // while the published port still reaches the same database (fw migrate, a SQL client)
    const viaPublished = new pg.Client({ host: '127.0.0.1', port: published, user: 'postgres', database: state.env.FW_DB_MAIN_NAME });
    await viaPublished.connect();
    try {
      const titles = (await viaPublished.query<{ title: string }>('SELECT title FROM tasks')).rows.map((r) => r.title);
      expect(titles).to.include('direct');
    } finally {
      await viaPublished.end();
    }
  });
});
