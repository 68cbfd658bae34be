import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { eventually, FW_BIN, startDev, type RunningDev } from '../dev/helpers.js';
import { smallProject } from '../dev/small-project.js';

const run = promisify(execFile);
const TYPES = '.fw/types/app.d.ts';
const HEALTH = { 'src/routes/health/get.ts': `export const main = async () => ({ ok: true });\n` };

/** The commands that write `.fw/types/app.d.ts`: `fw types` and `fw dev` (at start and when the app reloads). */
describe('app types: written by fw types and fw dev', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fw types writes the file, then leaves it untouched while the app is the same', async () => {
    const dir = smallProject({ ...HEALTH, 'src/functions/report.ts': `export const main = async () => 1;\n` });
    dirs.push(dir);
    const first = await run(process.execPath, [FW_BIN, 'types'], { cwd: dir });
    expect(first.stdout).to.match(/^\.fw\/types\/app\.d\.ts written \(0 queues, 1 functions, 0 buckets, 0 databases, 1 scopes\)/);
    const text = fs.readFileSync(path.join(dir, TYPES), 'utf8');
    expect(text).to.contain('"report": typeof import("../../src/functions/report.js").main;');
    expect(text).to.contain('scopes: "items:read";');
    expect(text).to.contain('queues: never;');
    const second = await run(process.execPath, [FW_BIN, 'types'], { cwd: dir });
    expect(second.stdout).to.match(/^\.fw\/types\/app\.d\.ts unchanged/);
  });

  describe('fw dev', () => {
    let dev: RunningDev | undefined;
    afterEach(async () => {
      await dev?.stop();
      dev = undefined;
    });

    it('writes the file at start, and again when the config or the functions change', async () => {
      const dir = smallProject(HEALTH);
      dirs.push(dir);
      dev = await startDev(dir);
      const file = path.join(dir, TYPES);
      expect(fs.readFileSync(file, 'utf8')).to.contain('scopes: "items:read";').and.contain('functions: {};');
      // A scope declared and a function added: the next request reloads the app, which writes the types again.
      const config = fs.readFileSync(path.join(dir, 'fw.config.ts'), 'utf8');
      fs.writeFileSync(path.join(dir, 'fw.config.ts'), config.replace("{ 'items:read': 'Read items' }", "{ 'items:read': 'Read items', 'items:write': 'Write items' }"));
      fs.mkdirSync(path.join(dir, 'src', 'functions'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', 'functions', 'report.ts'), `export const main = async () => 1;\n`);
      const url = dev.url;
      await eventually(
        async () => {
          await fetch(`${url}/health`);
          const text = fs.readFileSync(file, 'utf8');
          return text.includes('scopes: "items:read" | "items:write";') && text.includes('"report": typeof import') ? true : undefined;
        },
        30_000,
        'the types with the new scope and function',
      );
    });
  });
});
