import * as fs from 'node:fs';
import { expect } from 'chai';
import type { FunctionUnit } from '@framework/core';
import { ActivityLog } from '../../src/dev/activity/index.js';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually, startDev } from './helpers.js';
import { smallProject } from './small-project.js';

/** `hh:mm:ss.mmm METHOD /path STATUS n ms <function> <request id>` */
const REQUEST_LINE = /^\d\d:\d\d:\d\d\.\d{3} (\S+) (\S+) (\d{3}) (\d+(?:\.\d)?) ms (\S+) ([0-9a-f-]{36})$/;

describe('fw dev activity log: a line per request, queue batch and cron run', function () {
  this.timeout(60_000);
  let dir: string;
  let server: DevServer;
  const lines: string[] = [];
  const errors: string[] = [];

  before(async () => {
    dir = smallProject(
      {
        'src/routes/hello/get.ts': `export const main = async () => ({ statusCode: 200, body: 'hi' });\n`,
        'src/routes/secret/get.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async () => ({ ok: true }), { scopes: ['items:read'] });\n`,
        'src/routes/boom/get.ts': `function deepInside() {\n  throw new Error('boom in the handler');\n}\nexport const main = async () => deepInside();\n`,
        'src/queues/jobs.ts': `export const main = async (event: { Records: { messageId: string; body: string }[] }) => ({ batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({ itemIdentifier: r.messageId })) });\n`,
      },
      `{ auth: {}, queues: [{ id: 'jobs' }] }`,
    );
    const log = { info: () => undefined, warn: () => undefined, error: (m: string) => errors.push(m) };
    server = await DevServer.start({ rootDir: dir, port: 0, log, print: () => undefined, activityLog: { write: (line) => lines.push(line) } });
    await server.settled;
  });

  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The gateway's header, or the id in the dev server's own error body. */
  const requestIdOf = async (response: Response): Promise<string> =>
    response.headers.get('apigw-requestid') ?? ((await response.json()) as { error: { requestId: string } }).error.requestId;
  const lineFor = (requestId: string) => eventually(async () => lines.find((l) => l.endsWith(requestId)), 10_000, `the line of request ${requestId}`);

  it('a 200: time, method, path (no query), status, duration, function and request id', async () => {
    const response = await fetch(`${server.url}/hello?token=secret`);
    expect(response.status).to.equal(200);
    const line = await lineFor(response.headers.get('apigw-requestid')!);
    const [, method, path, status, , fn] = REQUEST_LINE.exec(line) ?? [];
    expect([method, path, status], line).to.deep.equal(['GET', '/hello', '200']);
    expect(fn).to.equal(server.currentApp().routes.find((r) => r.path === '/hello')!.functionName);
    expect(line).to.not.contain('secret');
  });

  it('a 401 of the local authorizer', async () => {
    const response = await fetch(`${server.url}/secret`);
    expect(response.status).to.equal(401);
    const line = await lineFor(await requestIdOf(response));
    expect(REQUEST_LINE.exec(line)?.slice(1, 4), line).to.deep.equal(['GET', '/secret', '401']);
  });

  it('a thrown 500, with the stack on real lines in the console', async () => {
    const response = await fetch(`${server.url}/boom`);
    expect(response.status).to.equal(500);
    const line = await lineFor(await requestIdOf(response));
    expect(REQUEST_LINE.exec(line)?.slice(1, 4), line).to.deep.equal(['GET', '/boom', '500']);
    const stack = await eventually(async () => errors.find((e) => e.includes('boom in the handler')), 10_000, 'the stack');
    expect(stack.split('\n').some((l) => /^\s+at deepInside \(/.test(l)), stack).to.equal(true);
  });

  it('a queue batch: its size and outcome', async () => {
    for (const body of ['good', 'bad']) {
      const sent = await fetch(`${server.url}/_dev/queues/jobs/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body }) });
      expect(sent.status).to.be.lessThan(300);
    }
    const batch = await eventually(async () => lines.find((l) => / queue jobs batch of \d+ /.test(l) && l.includes('failed, retried')), 20_000, 'a batch line with a failure');
    expect(batch).to.match(/^\d\d:\d\d:\d\d\.\d{3} queue jobs batch of [12] 1 failed, retried \d+(\.\d)? ms \S+$/);
  });

  it('a cron run: succeeded or failed; colours only when asked', () => {
    const out: string[] = [];
    const cron = { kind: 'cron', id: 'nightly', functionName: 'small-dev-cron-nightly' } as FunctionUnit;
    const time = new Date('2026-01-02T03:04:05.678Z');
    new ActivityLog({ write: (l) => out.push(l) }).unitRun(cron, {}, { ok: true, value: null }, 12.3, time);
    new ActivityLog({ write: (l) => out.push(l) }).unitRun(cron, {}, { ok: false, reason: 'error', errorType: 'TypeError', errorMessage: 'x' }, 4, time);
    new ActivityLog({ write: (l) => out.push(l), colour: true }).request({ time, method: 'GET', path: '/', status: 500, durationMs: 1, requestId: 'r' });
    expect(out).to.deep.equal([
      '03:04:05.678 cron nightly run succeeded 12 ms small-dev-cron-nightly',
      '03:04:05.678 cron nightly run failed (TypeError) 4.0 ms small-dev-cron-nightly',
      '\u001b[2m03:04:05.678\u001b[0m GET / \u001b[31m500\u001b[0m 1.0 ms - \u001b[2mr\u001b[0m',
    ]);
  });

  it('a time given in milliseconds (fractions dropped) prints as the same UTC time of day as a Date', () => {
    const out: string[] = [];
    const log = new ActivityLog({ write: (l) => out.push(l) });
    for (const iso of ['2026-01-02T03:04:05.678Z', '2026-11-24T23:59:59.999Z', '2026-11-24T00:00:00.005Z', '2026-11-24T10:07:09.040Z']) {
      log.request({ time: Date.parse(iso) + 0.9, method: 'GET', path: '/', status: 200, durationMs: 1, requestId: 'r' });
      log.request({ time: new Date(iso), method: 'GET', path: '/', status: 200, durationMs: 1, requestId: 'r' });
      expect(out[out.length - 1]).to.equal(out[out.length - 2]).and.match(new RegExp(`^${iso.slice(11, 23).replace(/\./g, '\\.')} `));
    }
  });
});

describe('fw dev --quiet', function () {
  this.timeout(60_000);
  it('prints no request lines (and fw dev without it does)', async () => {
    const dir = smallProject({ 'src/routes/hello/get.ts': `export const main = async () => ({ statusCode: 200, body: 'hi' });\n` });
    try {
      for (const quiet of [true, false]) {
        const dev = await startDev(dir, quiet ? ['--quiet'] : []);
        try {
          const response = await fetch(`${dev.url}/hello`);
          expect(response.status).to.equal(200);
          const requestId = response.headers.get('apigw-requestid')!;
          if (!quiet) await eventually(async () => (dev.output().includes(`GET /hello 200`) && dev.output().includes(requestId) ? true : undefined), 10_000, 'the request line');
          // Once the process has exited, its output is complete.
          await dev.stop();
          if (quiet) expect(dev.output()).to.contain('serving at').and.not.contain(requestId);
        } finally {
          await dev.stop();
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
