import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { chromium, type Browser, type Locator } from 'playwright-core';
import { DevServer } from '../../src/dev/dev-server.js';
import { findChromium } from './chromium.js';
import { smallProject } from './small-project.js';

const SECURITY = `{
  scopes: { 'tasks:read': 'Read tasks', 'tasks:write': 'Write tasks' },
  appClients: { web: { scopes: ['tasks:read', 'tasks:write'], flows: ['authorization_code'] } },
  roles: { admin: { scopes: ['tasks:read', 'tasks:write'] }, member: { scopes: ['tasks:read'] } },
}`;

const POISONED = path.join(os.tmpdir(), `fw-dev-console-poisoned-${process.pid}`);

const PROJECT = {
  'fw.config.ts': [
    `import { defineApp } from '@framework/core';`,
    `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: ${SECURITY}, envs: { dev: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: { auth: {}, queues: [{ id: 'jobs' }, { id: 'mail', timeout: 1, visibilityTimeout: 1, maxReceiveCount: 1 }], schedules: [{ id: 'tick', schedule: { cron: '0 7 * * ? *' } }] } });`,
    '',
  ].join('\n'),
  'src/routes/tasks/get.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async (_input, ctx) => [{ id: 't1', owner: ctx.auth?.subject ?? null }], { scopes: ['tasks:read'] });\n`,
  'src/queues/jobs.ts': `export const main = async () => ({ batchItemFailures: [] });\n`,
  // Fails while the file POISONED exists (the test removes it before the redrive).
  'src/queues/mail.ts': `import * as fs from 'node:fs';\nexport const main = async () => { if (fs.existsSync(${JSON.stringify(POISONED)})) throw new Error('poison'); return { batchItemFailures: [] }; };\n`,
  'src/crons/tick.ts': `export const main = async () => ({ ticked: true });\n`,
  'src/routes/tasks/post.ts': `import { handler } from '@framework/runtime';\nexport const main = handler(async () => ({ ok: true }), { scopes: ['tasks:write'] });\n`,
};

const SKIP_REASON = "    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian's chromium";

/** The located element's text once it matches, or its last text after 15 s (the page answers asynchronously). */
async function textOnceMatches(locator: Locator, pattern: RegExp): Promise<string> {
  await locator.waitFor({ timeout: 15_000 });
  let seen = '';
  for (let i = 0; i < 60; i++) {
    seen = (await locator.innerText()).trim();
    if (pattern.test(seen)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return seen;
}

describe('fw dev console at /_dev: the page shell, its Routes, Requests, Queues and Crons tabs (Chromium via playwright-core)', function () {
  this.timeout(120_000);
  const executablePath = findChromium();
  const screenshots = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-console-screens-'));
  let failed = false;
  let dir: string;
  let server: DevServer;
  let browser: Browser | undefined;

  before(async () => {
    dir = smallProject(PROJECT);
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false, typecheck: false });
    if (executablePath) browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    console.log(`    console screenshots: ${screenshots} (kept if a test fails)`);
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') failed = true;
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(POISONED, { force: true });
    if (!failed) fs.rmSync(screenshots, { recursive: true, force: true });
  });

  const get = (file: string, headers: Record<string, string>) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: new URL(server.url).port, path: file, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      });
      req.on('error', reject).end();
    });

  it('the page and its files answer this machine only: a foreign Host gets 403 HOST_NOT_ALLOWED, another origin 403 CROSS_ORIGIN_REQUEST', async () => {
    const host = new URL(server.url).host;
    const own = await get('/_dev', { host });
    expect(own.status).to.equal(200);
    expect(own.type).to.match(/^text\/html/);
    expect(own.body).to.include('/_dev/console/console.js');
    for (const file of ['/_dev', '/_dev/console/console.js', '/_dev/console/console.css', '/_dev/console/app', '/_dev/console/crons']) {
      const rebound = await get(file, { host: `attacker.example:${new URL(server.url).port}` });
      expect(rebound.status, file).to.equal(403);
      expect(rebound.body, file).to.include('HOST_NOT_ALLOWED');
      const crossOrigin = await get(file, { host, origin: 'http://attacker.example' });
      expect(crossOrigin.status, file).to.equal(403);
      expect(crossOrigin.body, file).to.include('CROSS_ORIGIN_REQUEST');
    }
  });

  it('GET /_dev/console/app lists the declared scopes and the roles with their scopes; the page weighs under 300 KB gzipped', async () => {
    const host = new URL(server.url).host;
    const app = await get('/_dev/console/app', { host });
    expect(JSON.parse(app.body)).to.deep.equal({
      project: 'small',
      stage: JSON.parse(app.body).stage,
      scopes: { 'tasks:read': 'Read tasks', 'tasks:write': 'Write tasks' },
      roles: { admin: ['tasks:read', 'tasks:write'], member: ['tasks:read'] },
      buckets: [],
    });
    let total = 0;
    for (const file of ['/_dev', '/_dev/console/console.js', '/_dev/console/console.css']) total += gzipSync((await get(file, { host })).body).length;
    console.log(`    console page weight: ${total} bytes gzipped (HTML + script + style sheet)`);
    expect(total).to.be.below(300 * 1024);
  });

  it('in Chromium: the Routes tab lists GET /tasks with its scope and file; "Try it" without a token answers 401, with a member token 200, and gives the curl command', async function () {
    if (!browser) {
      console.log(SKIP_REASON);
      this.skip();
    }
    const context = await browser!.newContext();
    const page = await context.newPage();
    const origins = new Set<string>();
    const pageErrors: string[] = [];
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/_dev`);

    // The tab list follows the tabs pattern: the selected tab is focusable and controls a visible panel.
    const tab = page.getByRole('tab', { name: 'Routes' });
    expect(await tab.getAttribute('aria-selected')).to.equal('true');
    await tab.focus();
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('tab-errors');
    expect(await page.locator('#panel-errors').isVisible()).to.equal(true);
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('tab-inbox');
    await page.keyboard.press('Home');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('tab-routes');
    expect(await tab.getAttribute('aria-selected')).to.equal('true');
    expect(await page.locator('#panel-errors').isVisible()).to.equal(false);

    const row = page.locator('#routes tbody tr', { hasText: '/tasks' }).filter({ hasText: 'GET' });
    await row.waitFor({ timeout: 30_000 });
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(0, 4)).to.deep.equal(['GET', '/tasks', 'tasks:read', 'src/routes/tasks/get.ts']);
    await page.screenshot({ path: path.join(screenshots, 'routes.png'), fullPage: true });

    await row.getByRole('button', { name: 'Try GET /tasks' }).click();
    // The picker preselects a role that holds the route's scopes.
    expect(await page.locator('#try-auth').inputValue()).to.equal('role:admin');
    await page.locator('#try-auth').selectOption('none');
    await page.locator('#try-send').click();
    expect(await textOnceMatches(page.locator('#try-status'), /^401$/)).to.equal('401');

    await page.locator('#try-auth').selectOption('role:member');
    await page.locator('#try-sub').fill('member-1');
    await page.locator('#try-send').click();
    expect(await textOnceMatches(page.locator('#try-status'), /^200$/)).to.equal('200');
    expect(JSON.parse(await page.locator('#try-answer').innerText())).to.deep.equal([{ id: 't1', owner: 'member-1' }]);
    expect(await page.locator('#try-time').innerText()).to.match(/^\d+\.\d ms$/);
    const curl = await page.locator('#try-curl').innerText();
    expect(curl).to.match(/^curl -i -X GET '.*\/tasks' -H 'authorization: Bearer [\w-]+\.[\w-]+\.[\w-]+'$/);
    await page.locator('#try-result details summary').click();
    expect(await page.locator('#try-result details').innerText()).to.include('content-type');
    await page.screenshot({ path: path.join(screenshots, 'routes-try-it.png'), fullPage: true });

    expect([...origins]).to.deep.equal([new URL(server.url).origin]);
    expect(pageErrors).to.deep.equal([]);
    await context.close();
  });

  it('in Chromium: the curl command the page gives, run as it is, gets the same answer', async function () {
    if (!browser) {
      console.log(SKIP_REASON);
      this.skip();
    }
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/_dev#routes`);
    const row = page.locator('#routes tbody tr', { hasText: '/tasks' }).filter({ hasText: 'POST' });
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: 'Try POST /tasks' }).click();
    expect(await page.locator('#try-auth').inputValue()).to.equal('role:admin');
    await page.locator('#try-body').fill(`{ "title": "it's done" }`);
    await page.locator('#try-send').click();
    expect(await textOnceMatches(page.locator('#try-status'), /^201$/)).to.equal('201');
    const curl = await page.locator('#try-curl').innerText();
    await context.close();
    // Asynchronously: the dev server answers from this process.
    const { stdout: answer } = await promisify(execFile)('sh', ['-c', curl], { encoding: 'utf8' });
    expect(answer).to.match(/^HTTP\/1\.1 201/);
    expect(answer).to.include('{"ok":true}');
  });

  it('in Chromium: the Requests tab streams each request (status, duration, request id) and queue batch as it happens; a row opens its details', async function () {
    if (!browser) {
      console.log(SKIP_REASON);
      this.skip();
    }
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/_dev#requests`);
    await page.locator('#events-state', { hasText: 'Live' }).waitFor({ timeout: 15_000 });
    // The page is open before these happen: they reach it through the stream, not a reload.
    const minted = (await (await fetch(`${server.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roles: ['member'], sub: 'member-2' }) })).json()) as { access_token: string };
    const answer = await fetch(`${server.url}/tasks?page=2`, { headers: { authorization: `Bearer ${minted.access_token}` } });
    expect(answer.status).to.equal(200);
    const sent = await fetch(`${server.url}/_dev/queues/jobs/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: 'hello' }) });
    expect(sent.status).to.equal(202);

    // The row of this very request (the stream's backlog holds the earlier tests' too), by the gateway's request id.
    const requestId = answer.headers.get('apigw-requestid')!;
    expect(requestId).to.match(/^[0-9a-f-]{36}$/);
    const request = page.locator(`#events tbody tr[data-request-id="${requestId}"]`);
    await request.waitFor({ timeout: 15_000 });
    const cells = await request.locator('td').allInnerTexts();
    expect(cells.slice(1, 4)).to.deep.equal(['request', 'GET /tasks', '200']);
    expect(cells[4]).to.match(/^\d+\.\d ms$/);
    expect(cells[5]).to.equal(requestId);
    // The console's own calls (token, page files) are not in the stream.
    expect(await page.locator('#events tbody tr', { hasText: '/_dev/token' }).count()).to.equal(0);

    const batch = page.locator('#events tbody tr', { hasText: 'queue jobs batch of 1' });
    await batch.waitFor({ timeout: 15_000 });
    expect((await batch.locator('td').allInnerTexts())[3]).to.equal('ok');

    await request.focus();
    await page.keyboard.press('Enter');
    const event = JSON.parse(await page.locator('#event-json').innerText()) as Record<string, unknown>;
    expect(event).to.include({ kind: 'request', method: 'GET', path: '/tasks', status: 200, requestId: cells[5] });
    await page.screenshot({ path: path.join(screenshots, 'requests.png'), fullPage: true });
    await context.close();
  });

  it('GET /_dev/events is a server-sent event stream for this machine, refused to a foreign Host and to another origin, as every /_dev endpoint', async () => {
    const host = new URL(server.url).host;
    const abort = new AbortController();
    const own = await fetch(`${server.url}/_dev/events`, { signal: abort.signal });
    expect(own.status).to.equal(200);
    expect(own.headers.get('content-type')).to.match(/^text\/event-stream/);
    abort.abort();
    const rebound = await get('/_dev/events', { host: `attacker.example:${new URL(server.url).port}` });
    expect(rebound.status).to.equal(403);
    expect(rebound.body).to.include('HOST_NOT_ALLOWED');
    const crossOrigin = await get('/_dev/events', { host, origin: 'http://attacker.example' });
    expect(crossOrigin.status).to.equal(403);
    expect(crossOrigin.body).to.include('CROSS_ORIGIN_REQUEST');
  });

  it('in Chromium: the Crons tab shows each cron with its next fire time (UTC and local); "Run now" runs it and lists the run', async function () {
    if (!browser) {
      console.log(SKIP_REASON);
      this.skip();
    }
    const context = await browser!.newContext({ timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    await page.goto(`${server.url}/_dev#crons`);
    const row = page.locator('#crons tbody tr[data-cron="tick"]');
    await row.waitFor({ timeout: 15_000 });
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).to.equal('tick');
    expect(cells[1]).to.equal('cron(0 7 * * ? *)');
    // 07:00 UTC is 16:00 in Tokyo (no daylight saving time there).
    expect(cells[2]).to.match(/^\d{4}-\d\d-\d\d 07:00$/);
    expect(cells[3]).to.match(/4:00:00\sPM|16:00:00/);
    await row.getByRole('button', { name: 'Run tick now' }).click();
    expect(await textOnceMatches(row.locator('td[data-cron-runs]'), /ok \(run now\)/)).to.match(/^\d\d:\d\d:\d\d UTC ok \(run now\): \{"ticked":true\}$/);
    await page.screenshot({ path: path.join(screenshots, 'crons.png'), fullPage: true });
    await context.close();
  });

  it('in Chromium: the Queues tab sends a poison message, shows it in the dead letters, redrives it once fixed, and purges after a confirmation', async function () {
    if (!browser) {
      console.log(SKIP_REASON);
      this.skip();
    }
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/_dev#queues`);
    const card = page.locator('section[data-queue="mail"]');
    await card.locator('[data-queue-counts]', { hasText: 'Depth' }).waitFor({ timeout: 15_000 });
    fs.writeFileSync(POISONED, '');
    await card.locator('textarea').fill('{"to":"a@example.com"}');
    await card.getByRole('button', { name: 'Send mail' }).click();
    await card.locator('[data-queue-dead] td', { hasText: '{"to":"a@example.com"}' }).waitFor({ timeout: 20_000 });
    expect(await textOnceMatches(card.locator('[data-queue-counts]'), /dead letters 1/)).to.equal('Depth 0 · in flight 0 · dead letters 1');
    await page.screenshot({ path: path.join(screenshots, 'queues-dead-letter.png'), fullPage: true });

    fs.rmSync(POISONED);
    await card.getByRole('button', { name: 'Redrive mail' }).click();
    expect(await textOnceMatches(card.locator('[data-queue-outcome]'), /Redrove/)).to.equal('Redrove 1 dead letters to mail');
    // Consumed this time: the queue is empty, no dead letter left, and the stream has the batch that succeeded.
    expect(await textOnceMatches(card.locator('[data-queue-counts]'), /^Depth 0 · in flight 0 · dead letters 0$/)).to.equal('Depth 0 · in flight 0 · dead letters 0');
    expect(await card.locator('[data-queue-dead] tr').count()).to.equal(0);

    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await card.getByRole('button', { name: 'Purge mail' }).click();
    expect(await textOnceMatches(card.locator('[data-queue-outcome]'), /Purged/)).to.equal('Purged 0 messages');
    expect(asked).to.include('Delete every message of mail');
    await page.screenshot({ path: path.join(screenshots, 'queues.png'), fullPage: true });
    await context.close();
  });
});
