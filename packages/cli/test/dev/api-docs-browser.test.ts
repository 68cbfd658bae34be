import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { chromium, type Browser, type Locator } from 'playwright-core';
import { DevServer } from '../../src/dev/dev-server.js';
import { findChromium } from './chromium.js';
import { smallProject } from './small-project.js';

const ROUTES = {
  'fw.config.ts': [
    `import { defineApp } from '@framework/core';`,
    `export default defineApp({ base: { name: 'small', region: 'eu-west-1' }, security: { scopes: { 'items:read': 'Read items' }, appClients: { jobs: { scopes: ['items:read'], flows: ['client_credentials'] } } }, envs: { dev: { preset: 'free' } }, routesDir: 'src/routes', infrastructure: { auth: {} } });`,
  ].join('\n'),
  'src/routes/items/get.ts': `import { handler } from '@framework/runtime';\nimport { z } from 'zod';\nexport const main = handler({ scopes: ['items:read'], query: z.object({ color: z.enum(['red', 'blue']).optional() }), fn: async () => [] });\n`,
  'src/routes/items/[id]/get.ts': `import { handler } from '@framework/runtime';\nimport { z } from 'zod';\nexport const main = handler({ params: z.object({ id: z.string().uuid() }), response: z.object({ id: z.string() }), fn: async (_b, ctx) => ({ id: ctx.input.params.id }) });\n`,
};

/** The located element's text once it is `text`, or its last text after 15 s (Swagger UI renders the answer asynchronously). */
async function textOnceIs(locator: Locator, text: string): Promise<string> {
  await locator.waitFor({ timeout: 15_000 });
  let seen = '';
  for (let i = 0; i < 60; i++) {
    seen = (await locator.innerText()).trim();
    if (seen === text) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return seen;
}

type Document = { paths: Record<string, Record<string, { operationId: string; security?: unknown }>> };

describe('fw dev serves /_dev/openapi.json and the API reference page /_dev/docs (Chromium via playwright-core)', function () {
  this.timeout(120_000);
  const executablePath = findChromium();
  let dir: string;
  let server: DevServer;
  let browser: Browser | undefined;

  before(async () => {
    dir = smallProject(ROUTES);
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false, typecheck: false });
    if (executablePath) browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const openApi = async () => {
    const answer = await fetch(`${server.url}/_dev/openapi.json`);
    expect(answer.status).to.equal(200);
    return (await answer.json()) as Document;
  };

  it('the document is valid OpenAPI 3.1, with every route, its scopes and the dev issuer as OAuth server; a new route file shows up on the next fetch', async () => {
    const document = await openApi();
    expect((await new Validator().validate(document as unknown as object)).valid).to.equal(true);
    expect(Object.keys(document.paths).sort()).to.deep.equal(['/items', '/items/{id}']);
    expect(document.paths['/items']!.get!.security).to.deep.equal([{ oauth2: ['small/items:read'] }]);
    expect(document.paths['/items/{id}']!.get!.security).to.equal(undefined);
    expect(JSON.stringify(document)).to.include(`"tokenUrl":"${server.url}/oauth2/token"`);

    fs.mkdirSync(path.join(dir, 'src/routes/items/[id]/tags'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/routes/items/[id]/tags/post.ts'), `import { handler } from '@framework/runtime';\nexport const main = handler(async () => ({ ok: true }), { scopes: ['items:read'] });\n`);
    const after = await openApi();
    expect(after.paths['/items/{id}/tags']!.post!.operationId).to.equal('postItemsByIdTags');
  });

  it('the page answers this machine only: a loopback Host gets the page, another Host 403 HOST_NOT_ALLOWED', async () => {
    const port = new URL(server.url).port;
    const get = (file: string, host: string) =>
      new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: file, headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
        });
        req.on('error', reject).end();
      });
    const own = await get('/_dev/docs', `localhost:${port}`);
    expect(own.status).to.equal(200);
    expect(own.type).to.match(/^text\/html/);
    expect(own.body).to.include('/_dev/docs/swagger-ui-bundle.js');
    for (const file of ['/_dev/docs', '/_dev/openapi.json', '/_dev/docs/swagger-ui-bundle.js']) {
      const other = await get(file, `attacker.example:${port}`);
      expect(other.status, file).to.equal(403);
      expect(other.body, file).to.include('HOST_NOT_ALLOWED');
    }
  });

  it('the docs page, loaded in Chromium, shows every route with its operation, from files served by fw dev only', async function () {
    if (!browser) {
      console.log("    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian's chromium");
      this.skip();
    }
    const context = await browser!.newContext();
    const page = await context.newPage();
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    await page.goto(`${server.url}/_dev/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    const summaries = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(summaries.map((s) => s.replace(/\u200b/g, '').trim())).to.include.members(['/items', '/items/{id}']);
    expect(await page.locator('.opblock-summary-operation-id').allInnerTexts()).to.include.members(['getItems', 'getItemsById']);
    expect(await page.locator('button.authorize').count()).to.equal(1);
    expect([...origins]).to.deep.equal([new URL(server.url).origin]);
    await context.close();
  });

  it('on the page, Authorize (the client credentials client, from the dev issuer) then "Try it out" on the scoped GET /items answers 200', async function () {
    if (!browser) {
      console.log("    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian's chromium");
      this.skip();
    }
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/_dev/docs`);
    const operation = page.locator('#operations-items-getItems');
    await operation.waitFor({ timeout: 30_000 });

    // Without a token the gateway answers 401, as deployed.
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    expect(await textOnceIs(operation.locator('.live-responses-table tbody .response-col_status').first(), '401')).to.equal('401');

    await page.locator('.auth-wrapper button.authorize').click();
    const flow = page.locator('.modal-ux .auth-container').filter({ hasText: 'clientCredentials' });
    await flow.locator('button.authorize').click();
    await page.locator('.modal-ux button', { hasText: 'Logout' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.modal-ux').innerText()).to.include('Authorized');
    await page.locator('.modal-ux button.close-modal').click();

    await operation.locator('button.execute').click();
    expect(await textOnceIs(operation.locator('.live-responses-table tbody .response-col_status').first(), '200')).to.equal('200');
    await context.close();
  });
});
