import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
// @framework/testing from the workspace (as the data package's engines are): the app runs on fw dev's engines with
// the manual clock, so the cron fires when the test moves time, not when the wall clock does.
import { startApp, type HttpClient, type TestApp } from '../../../testing/src/index.js';
import { CHANNELS_MIGRATION } from '../../src/index.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** A small app: one database with the channels' migration, and a daily digest cron writing what it sends to a table. */
function digestApp(): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-notify-digest-'));
  fs.chmodSync(dir, 0o755);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'digest-app', private: true, type: 'module' }),
    'fw.config.ts': `import { defineApp } from '@framework/core';
export default defineApp({
  base: { name: 'digests', region: 'us-east-1' },
  security: { scopes: {}, appClients: {} },
  envs: { dev: { preset: 'free' } },
  infrastructure: {
    databases: [{ id: 'main' }],
    schedules: [{ id: 'daily-digest', schedule: { cron: '5 0 * * ? *' } }],
  },
});
`,
    'migrations/0001_notify_channels.sql': CHANNELS_MIGRATION,
    'migrations/0002_digest_log.sql': 'CREATE TABLE digest_log (user_id text NOT NULL, items int NOT NULL, window_end timestamptz NOT NULL);\n',
    'src/crons/daily-digest.ts': `import '@framework/data';
import { sql } from '@framework/data';
import { taskHandler } from '@framework/runtime';
import { digestTask } from '@framework/notify';

export const main = taskHandler(
  digestTask({
    category: 'daily',
    window: '1d',
    send: async (tx, digest) => {
      await tx.query(sql\`INSERT INTO digest_log VALUES (\${digest.userId}, \${digest.items.length}, \${digest.windowEnd})\`);
    },
  }),
);
`,
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const DAY = 86_400_000;
const nextMidnight = (t: Date) => new Date(Math.floor(t.getTime() / DAY) * DAY + DAY);

describe('a digest cron on the testing clock (fw dev engines, PGlite)', function () {
  this.timeout(300_000);
  let project: ReturnType<typeof digestApp>;
  let app: TestApp<HttpClient>;

  before(async () => {
    project = digestApp();
    app = await startApp({ root: project.dir, engines: { databases: 'embedded' } });
  });
  after(async () => {
    await app?.stop();
    project?.remove();
  });

  it('the cron closes each day at its fire time: items of the day go out once, items of the next day wait for the next run', async () => {
    const db = app.db();
    const add = async (userId: string, at: Date) =>
      db.query(`INSERT INTO fw_notify_digest_items (user_id, category, data, created_at) VALUES ($1, 'daily', '{}', $2)`, [userId, at]);
    const start = app.clock.now();
    await add('ada', start);
    await add('ada', start);
    await add('bob', start);

    const first = await app.clock.advance('1d');
    expect(first.filter((t) => t.kind === 'cron' && t.id === 'daily-digest').map((t) => t.ok)).to.deep.equal([true]);
    const afterFirst = (await db.query('SELECT user_id, items, window_end FROM digest_log ORDER BY user_id')) as { user_id: string; items: number; window_end: Date }[];
    expect(afterFirst.map((r) => [r.user_id, r.items])).to.deep.equal([
      ['ada', 2],
      ['bob', 1],
    ]);
    expect(new Date(afterFirst[0]!.window_end).getTime()).to.equal(nextMidnight(start).getTime());

    // An item of the next (clock) day: the run at the end of that day sends it; the wall clock is a day behind.
    await add('ada', app.clock.now());
    await app.clock.advance('1d');
    const all = (await db.query('SELECT user_id, items, window_end FROM digest_log ORDER BY window_end, user_id')) as { user_id: string; items: number; window_end: Date }[];
    expect(all.map((r) => [r.user_id, r.items])).to.deep.equal([
      ['ada', 2],
      ['bob', 1],
      ['ada', 1],
    ]);
    expect(new Date(all[2]!.window_end).getTime()).to.equal(nextMidnight(start).getTime() + DAY);
  });
});
