import * as fs from 'node:fs';
import * as http from 'node:http';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { DevServer } from '../../src/dev/dev-server.js';
import { findChromium } from './chromium.js';
import { smallProject } from './small-project.js';

// A route that sends, as the dispatcher would, through the local inbox providers fw dev's environment enables: an
// email over SMTP (HTML with a script and a remote image, which the page must neither run nor fetch) and an SMS.
const SEND_ROUTE = `import { handler } from '@framework/runtime';
import { defineNotification, escapeHtml, localInboxProviders, renderMessage } from '@framework/notify';
const templates = {
  hello: defineNotification<{ name: string }>({
    email: {
      subject: (d) => 'Hello ' + d.name,
      mjml: (d) => '<mjml><mj-body><mj-section><mj-column><mj-text><p id="greeting">Hello ' + escapeHtml(d.name) + '</p></mj-text><mj-raw><script>parent.document.title = "pwned"</script><img src="http://127.0.0.1:' + process.env.PIXEL_PORT + '/pixel.png"></mj-raw></mj-column></mj-section></mj-body></mjml>',
    },
    sms: (d) => 'Hi ' + d.name + ', your code is 1234',
  }),
};
export const main = handler(async (_input, ctx) => {
  const [email, messages] = localInboxProviders();
  const id = ctx.requestId;
  await email!.send(await renderMessage(templates, { id, channel: 'email', to: 'ada@example.com', template: 'hello', category: 'transactional', data: { name: 'Ada' } }), { idempotencyKey: 'e-' + id });
  await messages!.send(await renderMessage(templates, { id, channel: 'sms', to: '+14155550100', template: 'hello', category: 'transactional', data: { name: 'Ada' } }), { idempotencyKey: 's-' + id });
  return { sent: 2 };
});
`;

const SKIP_REASON = "    skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); .ci/prepare-machine installs Debian's chromium";

describe('fw dev local inbox: GET /_dev/inbox and the console Inbox tab (Chromium via playwright-core)', function () {
  this.timeout(120_000);
  const executablePath = findChromium();
  let dir: string;
  let server: DevServer;
  let browser: Browser | undefined;
  let pixel: http.Server;
  let pixelRequests = 0;

  before(async () => {
    pixel = http.createServer((_req, res) => {
      pixelRequests++;
      res.end();
    });
    await new Promise<void>((resolve) => pixel.listen(0, '127.0.0.1', resolve));
    process.env.PIXEL_PORT = String((pixel.address() as { port: number }).port);
    dir = smallProject({ 'src/routes/send/post.ts': SEND_ROUTE, 'src/notifications/README.md': 'templates live here\n' });
    server = await DevServer.start({ rootDir: dir, port: 0, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, print: () => undefined, activityLog: false, typecheck: false });
    if (executablePath) browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise<void>((resolve) => pixel?.close(() => resolve()));
    delete process.env.PIXEL_PORT;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const inbox = async () => (await (await fetch(`${server.url}/_dev/inbox`)).json()) as { smtpPort: number; messages: { channel: string; to: string; email?: { subject: string; html: string }; sms?: { body: string } }[] };

  it('a function sends through the local providers: the email arrives over SMTP, the SMS as a message, both at GET /_dev/inbox', async () => {
    const answer = await fetch(`${server.url}/send`, { method: 'POST' });
    expect(answer.status).to.equal(201);
    const { messages } = await inbox();
    expect(messages.map((m) => m.channel)).to.deep.equal(['sms', 'email']);
    expect(messages[0]).to.deep.include({ to: '+14155550100', sms: { body: 'Hi Ada, your code is 1234' } });
    expect(messages[1]!.email!.subject).to.equal('Hello Ada');
    expect(messages[1]!.email!.html).to.contain('id="greeting"');
  });

  it('GET /_dev/inbox answers this machine only; a post without the run secret is 401 INBOX_TOKEN_REQUIRED', async () => {
    const port = new URL(server.url).port;
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => http.request({ host: '127.0.0.1', port, path: '/_dev/inbox', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject).end());
    expect(await status({ host: `attacker.example:${port}` })).to.equal(403);
    expect(await status({ host: `127.0.0.1:${port}`, origin: 'http://attacker.example' })).to.equal(403);
    const forged = await fetch(`${server.url}/_dev/inbox/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-fw-dev-inbox-token': 'guess' }, body: JSON.stringify({ channel: 'sms', to: '+1', idempotencyKey: 'k', sms: { body: 'x' } }) });
    expect(forged.status).to.equal(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).to.equal('INBOX_TOKEN_REQUIRED');
  });

  it('in Chromium: the Inbox tab shows the email in a sandboxed iframe (no script runs, no remote image is fetched) and the SMS as a message', async function () {
    if (!browser) {
      console.log(SKIP_REASON);
      this.skip();
    }
    const page = await browser!.newPage();
    await page.goto(`${server.url}/_dev#inbox`);
    const email = page.locator('#panel-inbox article[data-channel="email"]');
    await email.waitFor({ timeout: 15_000 });
    expect(await email.locator('.inbox-subject').innerText()).to.equal('Hello Ada');
    const frame = email.locator('iframe');
    expect(await frame.getAttribute('sandbox')).to.equal('');
    expect(await page.frameLocator('#panel-inbox article[data-channel="email"] iframe').locator('#greeting').innerText()).to.equal('Hello Ada');
    expect(await page.locator('#panel-inbox article[data-channel="sms"] .inbox-bubble').innerText()).to.equal('Hi Ada, your code is 1234');
    expect(await page.title()).to.not.equal('pwned');
    expect(pixelRequests).to.equal(0);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator('#panel-inbox article').first().waitFor({ state: 'detached', timeout: 15_000 });
    expect((await inbox()).messages).to.deep.equal([]);
    await page.close();
  });
});
