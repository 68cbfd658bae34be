import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { DevServer } from '../../src/dev/index.js';
import { REPO, eventually, startDev, type RunningDev } from './helpers.js';

/**
 * "An edited file is used by the next request": `fw dev` on a small project (no engines to start), saved to in every
 * way editors and tools save, each save followed at once by one request that must get the new code.
 */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }),
  '.gitignore': 'node_modules\n.fw/\n',
  'fw.config.ts': configFile('fresh-r0'),
  'config/dev.ts': devConfig(128),
  'src/routes/edit/get.ts': `export const main = async () => ({ v: 'committed' });\n`,
  'src/routes/lib/get.ts': `import { value } from '../../lib/shared.js';\nexport const main = async () => ({ v: value });\n`,
  'src/lib/shared.ts': `export const value = 'start';\n`,
  'src/functions/calc.ts': `export const main = async () => ({ v: 'committed' });\n`,
  'src/routes/env/get.ts': `export const main = async () => ({ name: process.env.AWS_LAMBDA_FUNCTION_NAME, memory: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE });\n`,
};

function configFile(name: string): string {
  return `import { defineApp } from '@framework/core';\nimport { dev } from './config/dev.js';\n\nexport default defineApp({ base: { name: '${name}', region: 'eu-west-1' }, security: { scopes: {} }, envs: { dev }, infrastructure: { functions: [{ id: 'calc' }] } });\n`;
}

function devConfig(memorySize: number): string {
  return `import type { EnvironmentConfig } from '@framework/core';\n\nexport const dev: EnvironmentConfig = { preset: 'free', overrides: { functions: { memorySize: ${memorySize} } } };\n`;
}

const route = (value: string) => `export const main = async () => ({ v: '${value}' });\n`;

function writeProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-fresh-test-'));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=fw test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return dir;
}

/** A save of one kind: changes files, then says which path to request and what its answer must hold. */
interface Save {
  readonly kind: string;
  readonly path: string;
  /** @default 'GET' */
  readonly method?: string;
  /** Fields of the answer: a value, or a pattern the field matches. */
  readonly expected: Record<string, unknown>;
}

describe('fw dev: every save is seen by the next request', function () {
  this.timeout(240_000);
  let dir: string;
  let dev: RunningDev | undefined;
  const file = (relative: string) => path.join(dir, relative);
  /** Writes a temporary file beside `target` and renames it over `target`, as `sed -i` and many formatters do. */
  const renameOver = (target: string, text: string) => {
    fs.writeFileSync(`${target}.tmp-${process.pid}`, text);
    fs.renameSync(`${target}.tmp-${process.pid}`, target);
  };

  beforeEach(() => {
    dir = writeProject();
  });
  afterEach(async () => {
    await dev?.stop();
    dev = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers each of 200 saves of every kind with the new code, on the very next request', async () => {
    const edit = 'src/routes/edit/get.ts';
    const kinds: ((i: number) => Save)[] = [
      (i) => {
        fs.writeFileSync(file(edit), route(`in-place ${i}`));
        return { kind: 'in-place write', path: '/edit', expected: { v: `in-place ${i}` } };
      },
      (i) => {
        execFileSync('sed', ['-i', `s/v: '[^']*'/v: 'sed ${i}'/`, file(edit)]);
        return { kind: 'sed -i (rename over)', path: '/edit', expected: { v: `sed ${i}` } };
      },
      (i) => {
        // JetBrains' safe write: new text to a temporary file, the original moved aside, the temporary file renamed in.
        fs.writeFileSync(file(`${edit}___jb_tmp___`), route(`safe write ${i}`));
        fs.renameSync(file(edit), file(`${edit}___jb_old___`));
        fs.renameSync(file(`${edit}___jb_tmp___`), file(edit));
        fs.unlinkSync(file(`${edit}___jb_old___`));
        return { kind: 'safe write', path: '/edit', expected: { v: `safe write ${i}` } };
      },
      () => {
        execFileSync('git', ['checkout', '--', edit], { cwd: dir });
        return { kind: 'git checkout -- file', path: '/edit', expected: { v: 'committed' } };
      },
      (i) => {
        fs.unlinkSync(file(edit));
        fs.writeFileSync(file(edit), route(`re-created ${i}`));
        return { kind: 'delete + re-create', path: '/edit', expected: { v: `re-created ${i}` } };
      },
      (i) => {
        fs.mkdirSync(file(`src/routes/added/n${i}`), { recursive: true });
        fs.writeFileSync(file(`src/routes/added/n${i}/get.ts`), route(`added ${i}`));
        return { kind: 'new route file in a new folder', path: `/added/n${i}`, expected: { v: `added ${i}` } };
      },
      (i) => {
        fs.mkdirSync(file(`src/lib/n${i}`));
        fs.writeFileSync(file(`src/lib/n${i}/value.ts`), `export const value = 'new lib ${i}';\n`);
        fs.writeFileSync(file(edit), `import { value } from '../../lib/n${i}/value.js';\nexport const main = async () => ({ v: value });\n`);
        return { kind: 'new src/lib file in a new folder, imported', path: '/edit', expected: { v: `new lib ${i}` } };
      },
      (i) => {
        const text = `export const value = 'lib ${i}';\n`;
        if (i % 2) renameOver(file('src/lib/shared.ts'), text);
        else fs.writeFileSync(file('src/lib/shared.ts'), text);
        return { kind: 'src/lib file', path: '/lib', expected: { v: `lib ${i}` } };
      },
      (i) => {
        if (i % 2) renameOver(file('config/dev.ts'), devConfig(128 + i));
        else fs.writeFileSync(file('config/dev.ts'), devConfig(128 + i));
        return { kind: 'config/dev.ts', path: '/env', expected: { memory: String(128 + i) } };
      },
      (i) => {
        if (i % 2) renameOver(file('fw.config.ts'), configFile(`fresh-r${i}`));
        else fs.writeFileSync(file('fw.config.ts'), configFile(`fresh-r${i}`));
        return { kind: 'fw.config.ts', path: '/env', expected: { name: new RegExp(`^fresh-r${i}-`) } };
      },
      (i) => {
        renameOver(file('src/functions/calc.ts'), route(`function ${i}`));
        return { kind: 'function file, invoked through /_dev/invoke', path: '/_dev/invoke/calc', method: 'POST', expected: { v: `function ${i}` } };
      },
    ];
    // Given fw dev serving, each route loaded once
    dev = await startDev(dir);
    for (const p of ['/edit', '/lib', '/env']) expect((await fetch(`${dev!.url}${p}`)).status).to.equal(200);
    const missed: string[] = [];
    for (let i = 0; i < 200; i++) {
      // When a file is saved and one request follows at once
      const save = kinds[i % kinds.length]!(i);
      const response = await fetch(`${dev!.url}${save.path}`, save.method === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' } : {});
      const body = await response.text();
      // Then that request is answered by the new code
      let answer: Record<string, unknown> = {};
      try {
        answer = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // reported below
      }
      const seen = response.status === 200 && Object.entries(save.expected).every(([key, value]) => (value instanceof RegExp ? value.test(String(answer[key])) : answer[key] === value));
      if (!seen) missed.push(`save ${i} (${save.kind}): expected ${JSON.stringify(save.expected, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))}, got ${response.status} ${body.slice(0, 200)}`);
    }
    expect(missed, dev!.output().slice(-3000)).to.deep.equal([]);
  });

  it('serves all of 50 route files added in one burst, with no error logged', async () => {
    // Given fw dev serving
    dev = await startDev(dir);
    expect((await fetch(`${dev.url}/edit`)).status).to.equal(200);
    // When 50 route files, each in a new folder, are written in one burst
    for (let i = 0; i < 50; i++) {
      fs.mkdirSync(file(`src/routes/burst/b${i}`), { recursive: true });
      fs.writeFileSync(file(`src/routes/burst/b${i}/get.ts`), route(`burst ${i}`));
    }
    // Then the requests that follow get every one of them
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${dev!.url}/burst/b${i}`).then(async (r) => `${r.status} ${await r.text()}`)));
    expect(answers).to.deep.equal(Array.from({ length: 50 }, (_, i) => `200 ${JSON.stringify({ v: `burst ${i}` })}`));
    // And the route table lists them all, and nothing was logged as an error (the file events arrive by now too)
    await new Promise((resolve) => setTimeout(resolve, 500));
    const table = (await (await fetch(`${dev!.url}/_dev/functions`)).json()) as { routes: { path: string }[] };
    expect(table.routes.map((r) => r.path).filter((p) => p.startsWith('/burst/')).sort()).to.deep.equal(Array.from({ length: 50 }, (_, i) => `/burst/b${i}`).sort());
    // (the banner's console line names the console's Errors tab: not a logged error)
    const logged = dev!.output().split('\n').filter((line) => !line.startsWith('Dev console:'));
    expect(logged.join('\n')).not.to.match(/error/i);
  });

  it('sees every save on the next request also with no file events at all (the watcher off)', async () => {
    // Given a dev server in this process that watches no file (correctness must not rest on file events)
    const logged: string[] = [];
    const log = { info: () => undefined, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    const server = await DevServer.start({ rootDir: dir, port: 0, watch: false, log, print: () => undefined });
    try {
      await server.settled;
      const missed: string[] = [];
      const saves: [string, () => void, string, Record<string, string>][] = [];
      for (let i = 0; i < 3; i++) {
        saves.push(
          ['in-place write', () => fs.writeFileSync(file('src/routes/edit/get.ts'), route(`in-place ${i}`)), '/edit', { v: `in-place ${i}` }],
          ['rename over', () => renameOver(file('src/routes/edit/get.ts'), route(`renamed ${i}`)), '/edit', { v: `renamed ${i}` }],
          ['src/lib file', () => renameOver(file('src/lib/shared.ts'), `export const value = 'lib ${i}';\n`), '/lib', { v: `lib ${i}` }],
          ['route file in a new folder', () => {
            fs.mkdirSync(file(`src/routes/quiet/q${i}`), { recursive: true });
            fs.writeFileSync(file(`src/routes/quiet/q${i}/get.ts`), route(`quiet ${i}`));
          }, `/quiet/q${i}`, { v: `quiet ${i}` }],
          ['config/dev.ts', () => fs.writeFileSync(file('config/dev.ts'), devConfig(256 + i)), '/env', { memory: String(256 + i) }],
        );
      }
      for (const [kind, save, at, expected] of saves) {
        // When a file is saved and one request follows at once
        save();
        const response = await fetch(`${server.url}${at}`);
        const body = await response.text();
        // Then that request is answered by the new code
        const answer = (response.status === 200 ? JSON.parse(body) : {}) as Record<string, unknown>;
        if (!Object.entries(expected).every(([key, value]) => answer[key] === value)) missed.push(`${kind}: expected ${JSON.stringify(expected)}, got ${response.status} ${body.slice(0, 200)}`);
      }
      expect(missed, logged.join('\n')).to.deep.equal([]);
      expect(logged).to.deep.equal([]);
    } finally {
      await server.stop();
    }
  });

  it('rebuilds on file events alone, also after a file was replaced by a rename (the watcher keeps following it)', async () => {
    // Given a dev server in this process, its handlers built, and no request sent after the saves below
    const logged: string[] = [];
    const log = { info: () => undefined, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    const server = await DevServer.start({ rootDir: dir, port: 0, log, print: () => undefined });
    try {
      await server.settled;
      const bundle = path.join(dir, '.fw', 'dev', 'build', 'src', 'routes', 'edit', 'get.mjs');
      const built = (marker: string) => eventually(async () => (fs.readFileSync(bundle, 'utf8').includes(marker) ? true : undefined), 10_000, `a build with ${marker}`);
      // When the route file is replaced by a rename, then written in place, then renamed over, then written again
      renameOver(file('src/routes/edit/get.ts'), route('renamed 1'));
      await built('renamed 1');
      fs.writeFileSync(file('src/routes/edit/get.ts'), route('in place 1'));
      await built('in place 1');
      execFileSync('sed', ['-i', `s/in place 1/sed 1/`, file('src/routes/edit/get.ts')]);
      await built('sed 1');
      fs.writeFileSync(file('src/routes/edit/get.ts'), route('in place 2'));
      // Then file events alone rebuild it each time
      await built('in place 2');
      expect(logged).to.deep.equal([]);
    } finally {
      await server.stop();
    }
  });
});
