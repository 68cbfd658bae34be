import { expect } from 'chai';
import type { FunctionUnit, UnitKind } from '@framework/core';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { DevLogger, InvokeOutcome } from '../../src/dev/engines/engine.js';
import { FunctionHost, workerExecArgv } from '../../src/dev/functions/function-host.js';
import { HandlerBundler } from '../../src/dev/functions/handler-bundler.js';

/** Marks a promise that did not settle within `ms` (so a hang fails the assertion instead of the whole run). */
const HUNG = 'HUNG';
function bounded<T>(work: Promise<T>, ms: number): Promise<T | typeof HUNG> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<typeof HUNG>((resolve) => (timer = setTimeout(() => resolve(HUNG), ms)))]).finally(() => clearTimeout(timer));
}

function unit(kind: UnitKind, id: string, file: string, timeout = 5): FunctionUnit {
  return { kind, id, file, functionName: `host-test-${id.replace(/[^a-z0-9]+/gi, '-')}`, memorySize: 128, timeout, environment: {} };
}

const echo = (name: string) => `export const main = async (event) => ({ name: ${JSON.stringify(name)}, event, env: process.env.AWS_LAMBDA_FUNCTION_NAME ?? null });\n`;

describe('dev function host (worker threads, in-process)', function () {
  let rootDir: string;
  let host: FunctionHost | undefined;
  const errors: string[] = [];
  const log: DevLogger = { info: () => undefined, warn: () => undefined, error: (m) => errors.push(m) };

  const units = [
    unit('route', 'GET /a', 'src/routes/a/get.ts'),
    unit('route', 'GET /b', 'src/routes/b/get.ts'),
    unit('route', 'POST /c', 'src/routes/c/post.ts'),
    unit('function', 'report', 'src/functions/report.ts'),
    unit('function', 'notify', 'src/functions/notify.ts'),
    unit('queue', 'arrivals', 'src/queues/arrivals.ts'),
  ];
  const slow = unit('function', 'slow', 'src/functions/slow.ts', 1);
  const stuck = unit('function', 'stuck', 'src/functions/stuck.ts');

  function startHost(initTimeoutMs?: number, preloadPackages?: boolean): FunctionHost {
    host = new FunctionHost(
      new HandlerBundler(rootDir, path.join(rootDir, '.fw', 'dev', 'build')),
      () => ({ TZ: 'UTC' }),
      (u) => ({ TZ: 'UTC', AWS_LAMBDA_FUNCTION_NAME: u.functionName }),
      log,
      { initTimeoutMs, ...(preloadPackages === undefined ? {} : { preloadPackages }) },
    );
    return host;
  }

  beforeEach(() => {
    errors.length = 0;
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-host-test-'));
    for (const u of units) {
      fs.mkdirSync(path.dirname(path.join(rootDir, u.file)), { recursive: true });
      fs.writeFileSync(path.join(rootDir, u.file), echo(u.id));
    }
    fs.writeFileSync(path.join(rootDir, slow.file), `export const main = () => new Promise(() => undefined);\n`);
    // A top-level await that never settles: the import hangs for ever (the timer keeps the thread alive).
    fs.writeFileSync(path.join(rootDir, stuck.file), `await new Promise((resolve) => setTimeout(resolve, 2 ** 30));\nexport const main = async () => 'never';\n`);
  });

  afterEach(async () => {
    await host?.stop();
    host = undefined;
    fs.rmSync(rootDir, { recursive: true, force: true });
  });

  it('answers concurrent first invocations of routes, functions and a queue consumer, none loaded before', async () => {
    // Given a host that has just compiled (its spare threads are still booting)
    const h = startHost();
    const compiled = h.rebuild([...units, slow, stuck]);
    // When every unit is invoked for the first time at once, while the build runs
    const outcomes = await Promise.all(units.map((u) => bounded(h.invoke(u, { for: u.id }), 30_000)));
    await compiled;
    // Then each answers with its own handler's result, in its own environment
    outcomes.forEach((outcome, i) => {
      expect(outcome, units[i]!.id).to.deep.equal({ ok: true, value: { name: units[i]!.id, event: { for: units[i]!.id }, env: units[i]!.functionName } });
    });
    // And a later synchronous invocation of each still answers
    const again = await Promise.all(units.map((u) => bounded(h.invoke(u, 'again'), 10_000)));
    expect(again.map((o) => (o === HUNG ? o : o.ok))).to.deep.equal(units.map(() => true));
  });

  it('with preloadPackages false, a function imports only the packages its own handler imports', async () => {
    // Given a package that notes every import of it, imported by one handler and not by another
    const marker = path.join(rootDir, 'node_modules', 'import-marker');
    fs.mkdirSync(marker, { recursive: true });
    fs.writeFileSync(path.join(marker, 'package.json'), JSON.stringify({ name: 'import-marker', type: 'module', main: 'index.js' }));
    fs.writeFileSync(path.join(marker, 'index.js'), "import * as fs from 'node:fs';\nfs.appendFileSync(new URL('./imports', import.meta.url), 'x');\nexport const marked = true;\n");
    const user = unit('function', 'user', 'src/functions/user.ts');
    fs.writeFileSync(path.join(rootDir, user.file), "import { marked } from 'import-marker';\nexport const main = async () => marked;\n");
    const h = startHost(undefined, false);
    await h.rebuild([...units, user]);
    // When only the other handler runs
    expect(await bounded(h.invoke(units[0]!, {}), 30_000)).to.include({ ok: true });
    // Then nothing imported the package (a preloading spare would have)
    expect(fs.existsSync(path.join(marker, 'imports'))).to.equal(false);
    // And the handler that needs it gets it
    expect(await bounded(h.invoke(user, {}), 30_000)).to.deep.equal({ ok: true, value: true });
  });

  it('moves a load interrupted by a rebuild to a fresh instance instead of failing it', async () => {
    // Given a compiled host
    const h = startHost();
    await h.rebuild(units);
    // When a first load is under way and an edit rebuilds the handlers
    const loading = bounded(h.load(units[0]!), 30_000);
    await h.rebuild(units);
    // Then the load succeeds (the retired thread's exit is not the handler's failure)
    const outcome = await loading;
    expect(outcome).to.not.equal(HUNG);
    expect(outcome).to.include({ ok: true });
    expect(errors).to.deep.equal([]);
  });

  it('loads in the background one handler at a time, while a load of its own (a request) does not wait for them', async () => {
    // Given handlers whose import writes when it starts and ends, half a second apart
    const trace = path.join(rootDir, 'loads.log');
    const traced = ['one', 'two', 'three', 'request'].map((id) => unit('function', id, `src/functions/${id}.ts`));
    for (const u of traced) {
      fs.writeFileSync(
        path.join(rootDir, u.file),
        `import * as fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(trace)}, 'start ${u.id}\\n');\nawait new Promise((resolve) => setTimeout(resolve, 400));\nfs.appendFileSync(${JSON.stringify(trace)}, 'end ${u.id}\\n');\nexport const main = async () => '${u.id}';\n`,
      );
    }
    const h = startHost(30_000);
    await h.rebuild(traced);
    // When three are queued in the background, then one is loaded for a request
    const background = traced.slice(0, 3).map((u) => bounded(h.loadInBackground(u), 60_000));
    const own = bounded(h.load(traced[3]!), 60_000);
    const outcomes = await Promise.all([...background, own]);
    // Then every load succeeds
    for (const outcome of outcomes) expect(outcome).to.include({ ok: true });
    // And the background loads never overlap: each starts after the previous one ended, in the order queued
    const lines = fs.readFileSync(trace, 'utf8').trim().split('\n');
    expect(lines.filter((l) => !l.endsWith('request'))).to.deep.equal(['start one', 'end one', 'start two', 'end two', 'start three', 'end three']);
    // And the request's own load started before the queue reached its last handler
    expect(lines.indexOf('start request')).to.be.lessThan(lines.indexOf('start three'));
  });

  it('times out an invocation past the function timeout, and serves the next one', async () => {
    // Given a function of timeout 1 s whose handler never answers
    const h = startHost();
    await h.rebuild([slow]);
    // When it is invoked
    const outcome = await bounded(h.invoke(slow, {}), 20_000);
    // Then it ends with Lambda's timeout, not a hang
    expect(outcome).to.include({ ok: false, reason: 'timeout', errorType: 'Sandbox.Timedout' });
    const next = (await bounded(h.invoke(slow, {}), 20_000)) as InvokeOutcome;
    expect(next).to.include({ ok: false, reason: 'timeout' });
  });

  it('ends a handler whose import never settles with a timeout outcome (504), not a hang', async () => {
    // Given a handler with a top-level await that never settles, and a short init limit
    const h = startHost(500);
    await h.rebuild([stuck]);
    // When it is invoked and loaded
    const invoked = await bounded(h.invoke(stuck, {}), 20_000);
    const loaded = await bounded(h.load(stuck), 20_000);
    // Then both end as timeouts and the console says why
    expect(invoked).to.include({ ok: false, reason: 'timeout', errorType: 'Runtime.InitTimeout' });
    expect(loaded).to.include({ ok: false, timedOut: true });
    expect(errors.join('\n')).to.contain('did not load within 0.5 s');
  });

  it('loads a handler afresh on the next invocation after it failed at import (as Lambda re-runs a failed init)', async () => {
    // Given a handler that throws at import until a marker file exists (a package being rewritten, say)
    const marker = path.join(rootDir, 'ready.marker');
    const flaky = unit('function', 'flaky', 'src/functions/flaky.ts');
    fs.writeFileSync(path.join(rootDir, flaky.file), `import { existsSync } from 'node:fs';\nif (!existsSync(${JSON.stringify(marker)})) throw new Error('not yet');\nexport const main = async () => 'loaded';\n`);
    const h = startHost();
    await h.rebuild([flaky]);
    const first = await bounded(h.invoke(flaky, {}), 20_000);
    expect(first).to.include({ ok: false, errorMessage: 'not yet' });
    // When the cause goes away, with no edit of the handler
    fs.writeFileSync(marker, '');
    // Then the next invocation loads it again and answers
    expect(await bounded(h.invoke(flaky, {}), 20_000)).to.deep.equal({ ok: true, value: 'loaded' });
  });

  it("answers what Lambda's JSON serialization of the result gives, whether the result is plain JSON or not", async () => {
    // Given handlers returning a plain structured response, and values JSON changes (Date, class instance, toJSON,
    // undefined members, NaN, -0, a null-prototype object)
    const plain = unit('function', 'plain', 'src/functions/plain.ts');
    const unusual = unit('function', 'unusual', 'src/functions/unusual.ts');
    fs.writeFileSync(path.join(rootDir, plain.file), `export const main = async () => ({ statusCode: 201, headers: { 'x-n': 1 }, body: JSON.stringify({ rows: [1, 'two', null, true] }) });\n`);
    fs.writeFileSync(
      path.join(rootDir, unusual.file),
      `class Point { constructor() { this.x = 1; } }\n` +
        `export const main = async () => ({ at: new Date(0), point: new Point(), own: { toJSON: () => 'custom' }, gone: undefined, list: [undefined, NaN, -0], bare: Object.assign(Object.create(null), { a: 1 }) });\n`,
    );
    const h = startHost();
    await h.rebuild([plain, unusual]);
    // Then each answer is the JSON round trip of the value
    expect(await bounded(h.invoke(plain, {}), 20_000)).to.deep.equal({ ok: true, value: { statusCode: 201, headers: { 'x-n': 1 }, body: '{"rows":[1,"two",null,true]}' } });
    expect(await bounded(h.invoke(unusual, {}), 20_000)).to.deep.equal({
      ok: true,
      value: { at: '1970-01-01T00:00:00.000Z', point: { x: 1 }, own: 'custom', list: [null, null, 0], bare: { a: 1 } },
    });
  });

  it("shows a line threads write as they load once in the terminal (again only from the function that showed it), each invocation's lines every time, and taps them all", async () => {
    // Given three handlers that, as they load, each write the same notice (a package's, on import) and a line of
    // their own, and a line per invocation
    const loud = ['one', 'two', 'three'].map((id) => unit('function', id, `src/functions/${id}.ts`));
    for (const u of loud) {
      fs.writeFileSync(
        path.join(rootDir, u.file),
        `console.warn('[some-package] notice: said on import');\nconsole.log('loaded ${u.id}');\nexport const main = async () => { console.log('called ${u.id}'); return '${u.id}'; };\n`,
      );
    }
    const terminal = { stdout: '', stderr: '' };
    const capture = (stream: 'stdout' | 'stderr') => new Writable({ write: (chunk, _encoding, done) => ((terminal[stream] += String(chunk)), done()) });
    const tapped: string[] = [];
    host = new FunctionHost(new HandlerBundler(rootDir, path.join(rootDir, '.fw', 'dev', 'build')), () => ({}), () => ({}), log, {
      output: { stdout: capture('stdout'), stderr: capture('stderr') },
      onLogLine: (line) => tapped.push(line),
    });
    await host.rebuild(loud);
    const seen = async (line: string, times: number) => {
      for (let i = 0; i < 300 && tapped.filter((l) => l === line).length < times; i++) await new Promise((r) => setTimeout(r, 50));
      expect(tapped.filter((l) => l === line), line).to.have.length(times);
    };
    // When each loads (its load-time lines reach fw dev before its first invocation), then runs twice
    for (const [i, u] of loud.entries()) {
      expect(await bounded(host.load(u), 30_000)).to.include({ ok: true });
      await seen('[some-package] notice: said on import', i + 1);
      await seen(`loaded ${u.id}`, 1);
    }
    for (const u of loud) expect(await bounded(host.invoke(u, {}), 20_000)).to.deep.equal({ ok: true, value: u.id });
    for (const u of loud) expect(await bounded(host.invoke(u, {}), 20_000)).to.deep.equal({ ok: true, value: u.id });
    for (const u of loud) await seen(`called ${u.id}`, 2);
    // Then the terminal shows the shared notice once, each handler's own load line, and every invocation's line
    const count = (text: string, line: string) => text.split('\n').filter((l) => l === line).length;
    expect(count(terminal.stderr, '[some-package] notice: said on import')).to.equal(1);
    for (const u of loud) {
      expect(count(terminal.stdout, `loaded ${u.id}`), u.id).to.equal(1);
      expect(count(terminal.stdout, `called ${u.id}`), u.id).to.equal(2);
    }
    // And the dev console's tap saw the notice from every thread
    expect(tapped.filter((l) => l === '[some-package] notice: said on import')).to.have.length(3);
    // When a save rebuilds the handlers and the second one loads again
    await host.rebuild(loud);
    expect(await bounded(host.load(loud[1]!), 30_000)).to.include({ ok: true });
    await seen('loaded two', 2);
    await seen('[some-package] notice: said on import', 4);
    // Then its own line shows again (a handler's line at import, at each reload), the notice another function showed
    // first does not
    expect(count(terminal.stdout, 'loaded two')).to.equal(2);
    expect(count(terminal.stderr, '[some-package] notice: said on import')).to.equal(1);
  });

  it('starts function threads without the module loaders of the parent process (a test runner TypeScript loader)', () => {
    expect(workerExecArgv(['--import', 'tsx', '--enable-source-maps', '--loader=x', '-r', 'y', '--max-old-space-size=512'])).to.deep.equal(['--enable-source-maps', '--max-old-space-size=512']);
  });
});
