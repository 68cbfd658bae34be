import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { findChromium } from './chromium.js';
import { copyExample, startDev, type RunningDev } from './helpers.js';

/** A route added to the example that logs (the logger's JSON line and a plain console.log) and answers. */
const ECHO_ROUTE = [
  `import { handler } from '@framework/runtime';`,
  `export const main = handler(async (_input, ctx) => {`,
  `  ctx.logger.info('echo called', { marker: 'console-log-marker' });`,
  `  console.log('plain line from echo');`,
  `  return { echoed: true };`,
  `});`,
  '',
].join('\n');

/** The located element's text once it matches, or its last text after 20 s. */
async function textOnceMatches(locator: Locator, pattern: RegExp, tries = 80): Promise<string> {
  await locator.waitFor({ timeout: 20_000 });
  let seen = '';
  for (let i = 0; i < tries; i++) {
    seen = (await locator.innerText()).trim();
    if (pattern.test(seen)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return seen;
}

describe('fw dev console on the example app (examples/tasks-api): every tab works (Chromium via playwright-core)', function () {
  this.timeout(240_000);
  const executablePath = findChromium();
  const screenshots = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-console-example-screens-'));
  let failed = false;
  let dir: string;
  let dev: RunningDev;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    dir = copyExample({ 'src/routes/echo/get.ts': ECHO_ROUTE });
    dev = await startDev(dir, ['--engine', 'databases=embedded']);
    console.log(`    console screenshots: ${screenshots} (kept if a test fails)`);
    if (executablePath) {
      browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
      page = await (await browser.newContext()).newPage();
      await page.goto(`${dev.url}/_dev`);
      await page.locator('#tab-errors').waitFor({ timeout: 30_000 });
    }
  });
  beforeEach(function () {
    if (!browser && this.currentTest?.title.startsWith('in Chromium')) {
      console.log("    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian's chromium");
      this.skip();
    }
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') failed = true;
  });
  after(async () => {
    await browser?.close();
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (!failed) fs.rmSync(screenshots, { recursive: true, force: true });
  });

  const raw = (method: string, file: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: new URL(dev.url).port, path: file, method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject).end(body);
    });
  const show = async (tab: string) => {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await page.locator(`#panel-${tab.toLowerCase()}`).waitFor({ state: 'visible' });
  };
  const shoot = (name: string) => page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });

  it("the console's endpoints answer this machine only: a foreign Host 403 HOST_NOT_ALLOWED, another origin 403 CROSS_ORIGIN_REQUEST, a body not JSON 415", async () => {
    const host = new URL(dev.url).host;
    const endpoints: [string, string][] = [
      ['GET', '/_dev/console/errors'],
      ['GET', '/_dev/console/requests/some-id'],
      ['GET', '/_dev/console/databases'],
      ['POST', '/_dev/console/databases/main/query'],
      ['POST', '/_dev/console/storage/attachments'],
      ['POST', '/_dev/console/auth'],
    ];
    for (const [method, file] of endpoints) {
      const body = method === 'POST' ? '{"action":"listUsers","args":[{}],"sql":"select 1"}' : undefined;
      const json = body ? { 'content-type': 'application/json' } : {};
      const rebound = await raw(method, file, { host: `attacker.example:${new URL(dev.url).port}`, ...json }, body);
      expect(rebound.status, file).to.equal(403);
      expect(rebound.body, file).to.include('HOST_NOT_ALLOWED');
      const crossOrigin = await raw(method, file, { host, origin: 'http://attacker.example', ...json }, body);
      expect(crossOrigin.status, file).to.equal(403);
      expect(crossOrigin.body, file).to.include('CROSS_ORIGIN_REQUEST');
      if (body) {
        const plain = await raw(method, file, { host, 'content-type': 'text/plain' }, body);
        expect(plain.status, file).to.equal(415);
      }
    }
    // The query box is read-only and one statement: a write and a second statement are the database's refusals.
    const write = await raw('POST', '/_dev/console/databases/main/query', { host, 'content-type': 'application/json' }, JSON.stringify({ sql: 'delete from tasks' }));
    expect(write.status).to.equal(400);
    expect(write.body).to.include('QUERY_FAILED').and.include('read-only');
    const two = await raw('POST', '/_dev/console/databases/main/query', { host, 'content-type': 'application/json' }, JSON.stringify({ sql: 'select 1; delete from tasks' }));
    expect(two.status).to.equal(400);
    expect(two.body).to.include('QUERY_FAILED');
  });

  it('in Chromium: Routes "Try it" GET /tasks with a member token answers 200, and the live stream shows it (delay measured); its row opens the answer and the log lines', async () => {
    await show('Routes');
    const row = page.locator('#routes tbody tr').filter({ has: page.locator('td:nth-child(2)', { hasText: /^\/tasks$/ }) }).filter({ has: page.locator('td:nth-child(1)', { hasText: /^GET$/ }) });
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: 'Try GET /tasks' }).click();
    await page.locator('#try-auth').selectOption('role:member');
    await page.locator('#try-sub').fill('mia');
    await page.locator('#try-send').click();
    expect(await textOnceMatches(page.locator('#try-status'), /^200$/)).to.equal('200');
    await shoot('routes');

    await show('Requests');
    await page.locator('#events-state', { hasText: 'Live' }).waitFor({ timeout: 30_000 });
    // From the answer's arrival in the page to its row in the live stream (the issue wants under 100 ms).
    const delay = await page.evaluate(async () => {
      const body = document.querySelector('#events tbody')!;
      const seen = new Promise<number>((resolve) => {
        new MutationObserver(() => {
          const top = body.firstElementChild;
          if (top && top.textContent?.includes('GET /echo')) resolve(performance.now());
        }).observe(body, { childList: true });
      });
      const response = await fetch('/echo');
      const answered = performance.now();
      await response.text();
      return (await seen) - answered;
    });
    console.log(`    live stream: the row appeared ${delay.toFixed(1)} ms after the response reached the page`);

    const echo = page.locator('#events tbody tr', { hasText: 'GET /echo' }).first();
    await echo.click();
    expect(await textOnceMatches(page.locator('#event-logs'), /plain line from echo/)).to.include('console-log-marker');
    expect(await page.locator('#event-logs').innerText()).to.include('plain line from echo');
    expect(await page.locator('#event-response').innerText()).to.include('"echoed": true');
    expect(await page.locator('#event-payload').innerText()).to.include('"rawPath": "/echo"');
    await shoot('requests');
  });

  it('in Chromium: the Queues tab sends a poison message to task-events, shows it dead-lettered and redrives it', async () => {
    await show('Queues');
    const card = page.locator('section[data-queue="task-events"]');
    await card.locator('[data-queue-counts]', { hasText: 'Depth' }).waitFor({ timeout: 15_000 });
    await card.locator('textarea').fill('{"poison":true}');
    await card.getByRole('button', { name: 'Send task-events' }).click();
    await card.locator('[data-queue-dead] td', { hasText: '{"poison":true}' }).waitFor({ timeout: 60_000 });
    await shoot('queues');
    await card.getByRole('button', { name: 'Redrive task-events' }).click();
    expect(await textOnceMatches(card.locator('[data-queue-outcome]'), /Redrove/)).to.equal('Redrove 1 dead letters to task-events');
  });

  it('in Chromium: the Crons tab runs daily-summary now; the Functions tab invokes task-summary (sync and async)', async () => {
    await show('Crons');
    const cron = page.locator('#crons tbody tr[data-cron="daily-summary"]');
    await cron.getByRole('button', { name: 'Run daily-summary now' }).click();
    expect(await textOnceMatches(cron.locator('td[data-cron-runs]'), /ok \(run now\)/)).to.match(/ok \(run now\)/);
    await shoot('crons');

    await show('Functions');
    const card = page.locator('section[data-function="task-summary"]');
    await card.getByRole('button', { name: 'Invoke task-summary', exact: true }).click();
    const results = card.locator('[data-function-results] li');
    expect(await textOnceMatches(results.first(), / ok /)).to.match(/ · ok · /);
    await card.getByRole('button', { name: 'Invoke task-summary asynchronously' }).click();
    expect(await textOnceMatches(results.first(), /accepted/)).to.include('accepted (async)');
    await shoot('functions');
  });

  it('in Chromium: the Data tab lists the tables with row counts and migrations, and reads a row of a task made through the API', async () => {
    const token = (await (await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roles: ['admin'], sub: 'ada' }) })).json()) as { access_token: string };
    const created = await fetch(`${dev.url}/tasks`, { method: 'POST', headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Seen in the Data tab' }) });
    expect(created.status).to.equal(201);
    await show('Data');
    const card = page.locator('section[data-database="main"]');
    await card.locator('[data-database-tables]').waitFor({ timeout: 30_000 });
    expect(await card.locator('[data-database-migrations]').innerText()).to.match(/create_tasks: applied/);
    await card.getByRole('button', { name: 'Query tasks' }).click();
    expect(await textOnceMatches(card.locator('[data-database-result]'), /Seen in the Data tab/)).to.include('Seen in the Data tab');
    await shoot('data');
  });

  it('in Chromium: the Storage tab uploads an object through a presigned form, lists it, and deletes it', async () => {
    await show('Storage');
    const card = page.locator('section[data-bucket="attachments"]');
    await card.locator('[data-storage-objects]').waitFor({ timeout: 15_000 });
    await card.locator('[data-storage-file]').setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the console') });
    await card.locator('[data-storage-key]').fill('console/note.txt');
    await card.getByRole('button', { name: 'Upload to attachments', exact: true }).click();
    expect(await textOnceMatches(card.locator('[data-storage-outcome]'), /Uploaded|failed/)).to.equal('Uploaded console/note.txt');
    const object = card.locator('tr[data-object-key="console/note.txt"]');
    await object.waitFor({ timeout: 15_000 });
    expect(await object.innerText()).to.include('22 B');
    await shoot('storage');
    page.once('dialog', (dialog) => void dialog.accept());
    await object.getByRole('button', { name: 'Delete console/note.txt' }).click();
    expect(await textOnceMatches(card.locator('[data-storage-outcome]'), /Deleted/)).to.equal('Deleted console/note.txt');
    await object.waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('in Chromium: the Auth tab lists the seeded users, creates (in a tenant), moves to another tenant and disables one, and mints a token for a role and tenant', async () => {
    await show('Auth');
    await page.locator('#auth-users tr[data-user="mia"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('#auth-users tr[data-user="mia"]').innerText()).to.include('member');
    await page.locator('#auth-new-username').fill('zoe');
    await page.locator('#auth-new-password').fill('Temporary-password-1');
    await page.locator('#auth-new-tenant').fill('globex');
    await page.locator('#auth-create label', { hasText: 'member' }).locator('input').check();
    await page.locator('#auth-create button[type=submit]').click();
    const zoe = page.locator('#auth-users tr[data-user="zoe"]');
    await zoe.waitFor({ timeout: 15_000 });
    expect((await zoe.locator('td').allInnerTexts()).slice(0, 4)).to.deep.equal(['zoe', '', 'member', 'globex']);
    // Moved to another tenant (service.auth.setTenant), then out of any
    await page.locator('#auth-move-user').selectOption('zoe');
    await page.locator('#auth-move-tenant').fill('initech');
    await page.locator('#auth-move button[type=submit]').click();
    expect(await textOnceMatches(page.locator('#auth-outcome'), /Moved zoe/)).to.equal('Moved zoe to tenant initech');
    expect(await textOnceMatches(zoe.locator('td').nth(3), /initech/)).to.equal('initech');
    await page.locator('#auth-move-tenant').fill('');
    await page.locator('#auth-move button[type=submit]').click();
    expect(await textOnceMatches(page.locator('#auth-outcome'), /out of any/)).to.equal('Moved zoe out of any tenant');
    expect(await textOnceMatches(zoe.locator('td').nth(3), /^$/)).to.equal('');
    await zoe.getByRole('button', { name: 'Disable zoe' }).click();
    expect(await textOnceMatches(zoe, /disabled/)).to.include('disabled');
    await page.locator('#auth-token-role').selectOption('member');
    await page.locator('#auth-token-tenant').fill('acme');
    await page.locator('#auth-mint button[type=submit]').click();
    const minted = await textOnceMatches(page.locator('#auth-token'), /^ey/);
    expect(minted).to.match(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.parse(Buffer.from(minted.split('.')[1]!, 'base64url').toString('utf8'))).to.include({ 'custom:tenant_id': 'acme' });
    await shoot('auth');
  });

  it('in Chromium: a handler that does not compile, one that throws at import and a broken config each show in a banner and the Errors tab, and clear once fixed', async () => {
    const file = path.join(dir, 'src/routes/echo/get.ts');
    fs.writeFileSync(file, `${ECHO_ROUTE}\nexport const broken = ;\n`);
    const banner = page.locator('#error-banner');
    expect(await textOnceMatches(banner, /src\/routes\/echo\/get\.ts/)).to.include('src/routes/echo/get.ts (compile)');
    await show('Errors');
    expect(await page.locator('#errors-list section[data-problem="src/routes/echo/get.ts"]').innerText()).to.include('does not compile');
    await shoot('errors');
    fs.writeFileSync(file, ECHO_ROUTE);
    await banner.waitFor({ state: 'hidden', timeout: 30_000 });
    await page.locator('#errors-none').waitFor({ timeout: 15_000 });

    // A handler that compiles but throws while imported: seen when a request loads it.
    fs.writeFileSync(file, `throw new Error('echo refuses to load');\n${ECHO_ROUTE}`);
    let answer = await fetch(`${dev.url}/echo`);
    for (let i = 0; i < 20 && answer.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await fetch(`${dev.url}/echo`);
    }
    expect(answer.status).to.equal(500);
    expect(await textOnceMatches(banner, /\(load\)/)).to.include('src/routes/echo/get.ts (load)');
    expect(await page.locator('#errors-list section[data-problem="src/routes/echo/get.ts"]').innerText()).to.include('echo refuses to load');
    fs.writeFileSync(file, ECHO_ROUTE);
    await banner.waitFor({ state: 'hidden', timeout: 30_000 });

    // A config that does not load: the app keeps serving the previous version, and the page says why.
    const config = path.join(dir, 'fw.config.ts');
    const configText = fs.readFileSync(config, 'utf8');
    fs.writeFileSync(config, `${configText}\nthrow new Error('config broken on purpose');\n`);
    expect(await textOnceMatches(banner, /fw\.config\.ts/)).to.include('fw.config.ts (config)');
    expect(await page.locator('#errors-list section[data-problem="fw.config.ts"]').innerText()).to.include('config broken on purpose');
    fs.writeFileSync(config, configText);
    await banner.waitFor({ state: 'hidden', timeout: 30_000 });
  });
});
