import { expect } from 'chai';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runMigrate } from '../../src/commands/migrate.js';
import { copyExample, eventually, json, startDev, token, type RunningDev } from '../dev/helpers.js';

/** The acceptance path: the example app's tasks live in its database through service.db; fw migrate works on it. */
describe('fw migrate against the example app on fw dev (embedded PGlite)', () => {
  let dir: string;
  let dev: RunningDev;
  let lines: string[];
  const out = (line: string) => lines.push(line);

  before(async function () {
    this.timeout(120_000);
    dir = copyExample();
    dev = await startDev(dir, ['--engine', 'databases=embedded']);
    // fw dev applied the example's migration when its database engine started
    await eventually(async () => (dev.output().includes('applied 0001_create_tasks.sql') ? true : undefined), 90_000, 'migrations applied by fw dev');
  });
  after(async () => {
    await dev?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    lines = [];
  });

  it('shows the migration fw dev applied at start-up, and tasks persist in that table', async () => {
    await runMigrate(['status'], { cwd: dir, out });
    // Every migration the example ships (its tables, the integrations package's, tenancy's) was applied.
    const shipped = readdirSync(path.join(dir, 'migrations')).filter((f) => f.endsWith('.sql')).length;
    expect(lines.join('\n')).to.match(/applied\s+0001_create_tasks\.sql/).and.match(/applied\s+0010_tenancy\.sql/).and.contain(`${shipped} applied, 0 pending`);
    const bearer = `Bearer ${await token(dev.url, ['tasks:read', 'tasks:write'])}`;
    const created = await fetch(`${dev.url}/tasks`, { method: 'POST', headers: { authorization: bearer, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'write the migration' }) });
    expect(created.status).to.equal(201);
    const list = await json(await fetch(`${dev.url}/tasks`, { headers: { authorization: bearer } }));
    expect(list.tasks.map((t: { title: string }) => t.title)).to.deep.equal(['write the migration']);
  });

  it('creates and applies a new migration to the running fw dev database', async () => {
    const shipped = readdirSync(path.join(dir, 'migrations')).filter((f) => f.endsWith('.sql')).length;
    await runMigrate(['create', 'add due date'], { cwd: dir, out });
    const file = readdirSync(path.join(dir, 'migrations')).find((f) => f.endsWith('_add_due_date.sql'));
    // the next number after the highest one the example ships
    const highest = Math.max(...readdirSync(path.join(dir, 'migrations')).filter((f) => f.endsWith('.sql') && f !== file).map((f) => Number.parseInt(f, 10)));
    expect(file).to.equal(`${String(highest + 1).padStart(4, '0')}_add_due_date.sql`);
    writeFileSync(path.join(dir, 'migrations', file as string), 'ALTER TABLE tasks ADD COLUMN due_date date;\n-- down\nALTER TABLE tasks DROP COLUMN due_date;\n');
    lines = [];
    expect(await runMigrate([], { cwd: dir, out })).to.equal(0);
    expect(lines).to.include(`applied ${file}`);
    lines = [];
    await runMigrate(['status'], { cwd: dir, out });
    expect(lines.join('\n')).to.contain(`${shipped + 1} applied, 0 pending`);
  });
});
