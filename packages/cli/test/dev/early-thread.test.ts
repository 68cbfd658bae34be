import { expect } from 'chai';
import type { FunctionUnit } from '@framework/core';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DevLogger } from '../../src/dev/engines/engine.js';
import { startEarlyThread, type EarlyThread } from '../../src/dev/functions/early-thread.js';
import { FunctionHost } from '../../src/dev/functions/function-host.js';
import { HandlerBundler } from '../../src/dev/functions/handler-bundler.js';

const log: DevLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const route = (memorySize: number): FunctionUnit => ({ kind: 'route', id: 'GET /thread', file: 'src/routes/thread/get.ts', functionName: 'early-thread-test', memorySize, timeout: 5, environment: {} });

describe("fw dev's early function thread (started before the dev server's modules load)", function () {
  let rootDir: string;
  let host: FunctionHost | undefined;
  let early: EarlyThread | undefined;
  const buildDir = () => path.join(rootDir, '.fw', 'dev', 'build');
  const startHost = (firstThread?: EarlyThread, firstPreloadAfter?: () => Promise<void>) =>
    (host = new FunctionHost(new HandlerBundler(rootDir, buildDir()), () => ({ TZ: 'UTC', BASE_ONLY: 'base' }), () => ({ TZ: 'UTC', FUNCTION_ONLY: 'function' }), log, {
      ...(firstThread ? { firstThread } : {}),
      ...(firstPreloadAfter ? { firstPreloadAfter } : {}),
    }));
  /** Where the marker package notes each import of it. */
  const importsFile = () => path.join(rootDir, 'node_modules', 'env-marker', 'imports');
  /** Waits up to `limitMs` for a first import of the marker package; whether one came. */
  async function untilImported(limitMs = 30_000): Promise<boolean> {
    for (let waited = 0; !fs.existsSync(importsFile()) && waited < limitMs; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    return fs.existsSync(importsFile());
  }

  beforeEach(() => {
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-early-thread-test-'));
    // A package that notes, when imported, the environment it was imported with
    const marker = path.join(rootDir, 'node_modules', 'env-marker');
    fs.mkdirSync(marker, { recursive: true });
    fs.writeFileSync(path.join(marker, 'package.json'), JSON.stringify({ name: 'env-marker', type: 'module', main: 'index.js' }));
    fs.writeFileSync(path.join(marker, 'index.js'), "import * as fs from 'node:fs';\nimport { threadId } from 'node:worker_threads';\nfs.appendFileSync(new URL('./imports', import.meta.url), JSON.stringify({ threadId, base: process.env.BASE_ONLY ?? null }) + '\\n');\nexport const marked = true;\n");
    const file = path.join(rootDir, route(128).file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "import { marked } from 'env-marker';\nimport { threadId } from 'node:worker_threads';\nexport const main = async () => ({ marked, threadId, fn: process.env.FUNCTION_ONLY ?? null });\n");
    // Saved before the run (a build of a file saved within the last clock tick is not kept for the next run)
    const past = new Date(Date.now() - 10_000);
    fs.utimesSync(file, past, past);
  });

  afterEach(async () => {
    await host?.stop();
    host = undefined;
    await early?.worker.terminate();
    early = undefined;
    fs.rmSync(rootDir, { recursive: true, force: true });
  });

  /** A first run: compiles the handler, answers once, notes its spares' memorySize for the next run. */
  async function firstRun(memorySize: number): Promise<void> {
    const h = startHost();
    await h.rebuild([route(memorySize)], { reuseLastRun: true });
    expect(await h.invoke(route(memorySize), {})).to.include({ ok: true });
    await h.stop();
    host = undefined;
    fs.rmSync(importsFile());
  }

  it('is not started without a previous run, then is adopted as the first spare: preloaded with the functions\' environment, it serves the first request', async () => {
    // Given no previous run: nothing says which heap limits the thread needs
    expect(startEarlyThread(buildDir())).to.equal(undefined);
    await firstRun(128);
    // When the next run starts its early thread, then its host with it
    early = startEarlyThread(buildDir());
    expect(early?.memorySize).to.equal(128);
    const h = startHost(early);
    await h.rebuild([route(128)], { reuseLastRun: true });
    // Then the thread imports the handlers' package with the functions' base environment, before any request
    await untilImported();
    const preloaded = JSON.parse(fs.readFileSync(importsFile(), 'utf8').trim()) as { threadId: number; base: string | null };
    expect(preloaded).to.deep.equal({ threadId: early!.worker.threadId, base: 'base' });
    // And the first request is answered on that thread, in the function's own environment, without importing the package again
    expect(await h.invoke(route(128), {})).to.deep.equal({ ok: true, value: { marked: true, threadId: early!.worker.threadId, fn: 'function' } });
    expect(fs.readFileSync(importsFile(), 'utf8').trim().split('\n')).to.have.length(1);
  });

  it("with firstPreloadAfter, boots bare and imports the handlers' packages only once that resolves (fw dev: once it listens and its first request is answered)", async () => {
    await firstRun(128);
    early = startEarlyThread(buildDir());
    let preloadNow!: () => void;
    const h = startHost(early, () => new Promise<void>((resolve) => (preloadNow = resolve)));
    await h.rebuild([route(128)], { reuseLastRun: true });
    // Then nothing is imported while the server starts (a thread that preloads at once, as in the first case, imports well within this wait)
    expect(await untilImported(1500)).to.equal(false);
    // When the server is ready
    preloadNow();
    // Then the spare imports the package, with the functions' base environment, and serves the first request without importing it again
    expect(await untilImported()).to.equal(true);
    expect(JSON.parse(fs.readFileSync(importsFile(), 'utf8').trim())).to.deep.equal({ threadId: early!.worker.threadId, base: 'base' });
    expect(await h.invoke(route(128), {})).to.deep.equal({ ok: true, value: { marked: true, threadId: early!.worker.threadId, fn: 'function' } });
    expect(fs.readFileSync(importsFile(), 'utf8').trim().split('\n')).to.have.length(1);
  });

  it('with firstPreloadAfter, serves a request that comes before the preload on that thread at once (the handler imports what it needs)', async () => {
    await firstRun(128);
    early = startEarlyThread(buildDir());
    // A server that never says it is ready
    const h = startHost(early, () => new Promise<void>(() => undefined));
    await h.rebuild([route(128)], { reuseLastRun: true });
    // Then the first request takes the bare thread: its handler's own import, in the function's environment
    expect(await h.invoke(route(128), {})).to.deep.equal({ ok: true, value: { marked: true, threadId: early!.worker.threadId, fn: 'function' } });
    expect(JSON.parse(fs.readFileSync(importsFile(), 'utf8').trim())).to.deep.equal({ threadId: early!.worker.threadId, base: null });
  });

  it('is ended, not used, when the functions now need other heap limits', async () => {
    await firstRun(128);
    early = startEarlyThread(buildDir());
    const exited = new Promise((resolve) => early!.worker.once('exit', resolve));
    // When the app's functions now have 256 MB
    const h = startHost(early);
    await h.rebuild([route(256)], { reuseLastRun: true });
    // Then the early thread ends, and another thread answers
    await exited;
    const outcome = await h.invoke(route(256), {});
    expect(outcome.ok).to.equal(true);
    expect(outcome.ok && (outcome.value as { threadId: number }).threadId).to.not.equal(early!.worker.threadId);
  });
});
