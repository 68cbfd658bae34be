import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { parseApiKey } from '@framework/integrations';
import { createClient, type Client } from '../src/client.gen.js';
import { startFwDev, type FwDev } from './fw-dev.js';

/** GET /tasks with an API key as a bearer (what the deployed authorizer caches on): the status, the headers and the JSON body. */
async function tasksWithKey(dev: FwDev, key: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: { tasks?: { id: string }[]; error?: { code: string } } }> {
  // A key acts for the tenant it was issued for (the issuing admin's: acme here), without naming it.
  const response = await fetch(`${dev.url}/tasks`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as never };
}

/** Polls `check` until it gives a value (an eventual state: another function's cache, a queue's retries). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 120): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return expect.fail(`gave up waiting for ${what}`);
}

/** The acceptance on fw dev: API keys issued by an admin, accepted on GET /tasks, revoked; webhooks out. */
describe('tasks-api: API keys and webhooks on fw dev', function () {
  this.timeout(180_000);
  let dev: FwDev;
  let adminSubject: string;
  let admin: Client;

  before(async () => {
    // Not quiet: the request log is part of what must never show a key.
    dev = await startFwDev({ quiet: false });
    adminSubject = `admin-${randomUUID()}`;
    admin = createClient({ baseUrl: dev.url, token: await dev.token(adminSubject, ['tasks:read', 'tasks:write', 'tasks:admin'], 'acme') });
  });
  after(async () => dev?.stop());

  it('issues a key (admins only), accepts it on GET /tasks as the admin with its scopes, and answers 401 once it is revoked; the key is never logged', async () => {
    const task = await admin.tasks.post({ title: 'Read me with a key' });
    const issued = await admin.apiKeys.post({ name: 'reporting', scopes: ['tasks:read'] });
    expect(issued.key).to.match(/^sk_test_[a-z0-9]{12}_/);
    expect(issued.scopes).to.deep.equal(['tasks:read']);

    // Members cannot issue keys.
    const member = createClient({ baseUrl: dev.url, token: await dev.token(`member-${randomUUID()}`, ['tasks:read', 'tasks:write'], 'acme') });
    const refused = await member.apiKeys.post({ name: 'mine', scopes: ['tasks:read'] }).then(() => undefined, (error: { status: number }) => error.status);
    expect(refused).to.equal(403);

    // The key works as a bearer (the generated client's token), as the admin who issued it.
    const withHeader = await tasksWithKey(dev, issued.key);
    expect(withHeader.status).to.equal(200);
    expect(withHeader.body.tasks!.map((t) => t.id)).to.deep.equal([task.id]);
    const keyClient = createClient({ baseUrl: dev.url, token: issued.key });
    expect((await keyClient.tasks.get()).tasks.map((t) => t.id)).to.deep.equal([task.id]);
    // In X-API-Key alone it is refused, as deployed: the authorizer caches its verdicts keyed on Authorization, so
    // API Gateway answers 401 before anything runs. The dev-only header names the fix.
    const inXApiKey = await fetch(`${dev.url}/tasks`, { headers: { 'x-api-key': issued.key } });
    expect(inXApiKey.status).to.equal(401);
    expect(await inXApiKey.json()).to.deep.equal({ message: 'Unauthorized' });
    expect(inXApiKey.headers.get('x-fw-dev-reason')).to.match(/^API_KEY_IN_X_API_KEY: .*Authorization: Bearer sk_/);
    // Only routes that accept keys do: POST /tasks wants a token.
    expect(await keyClient.tasks.post({ title: 'no' }).then(() => 0, (error: { status: number }) => error.status)).to.equal(401);

    // The key is bound to acme: naming another tenant is refused (a machine token could; a key cannot).
    const elsewhere = await tasksWithKey(dev, issued.key, { 'x-tenant-id': 'globex' });
    expect([elsewhere.status, elsewhere.body.error?.code]).to.deep.equal([403, 'TENANT_NOT_CALLERS']);
    expect((await tasksWithKey(dev, issued.key, { 'x-tenant-id': 'acme' })).status).to.equal(200);

    // A forged key with the same prefix is refused.
    const forged = `${issued.key.slice(0, -4)}AAAA`;
    const forgedAnswer = await tasksWithKey(dev, forged);
    expect([forgedAnswer.status, forgedAnswer.body.error?.code]).to.deep.equal([401, 'INVALID_API_KEY']);

    await admin.apiKeys.byId(issued.id).delete();
    // GET /tasks runs in its own function: it sees the revocation when its verification cache entry expires (10 s).
    const revoked = await eventually(async () => {
      const answer = await tasksWithKey(dev, issued.key);
      return answer.status === 401 ? answer : undefined;
    }, 'the revoked key to be refused');
    expect(revoked.body.error?.code).to.equal('INVALID_API_KEY');
    expect((await admin.apiKeys.get()).keys.find((k) => k.id === issued.id)?.revokedAt).to.be.a('string');

    expect(dev.output()).to.contain('/tasks');
    expect(dev.output()).not.to.contain(issued.key);
    // The secret is what follows `sk_<kind>_<prefix>_`; it may hold `_`, so splitting on `_` could leave one character.
    const parsed = parseApiKey(issued.key)!;
    expect(dev.output()).not.to.contain(issued.key.slice(`sk_${parsed.kind}_${parsed.prefix}_`.length));
  });

  it('answers 429 with Retry-After once a key is over its rate limit', async () => {
    const issued = await admin.apiKeys.post({ name: 'limited', scopes: ['tasks:read'], rateLimit: { requests: 2, windowSeconds: 3600 } });
    expect((await tasksWithKey(dev, issued.key)).status).to.equal(200);
    expect((await tasksWithKey(dev, issued.key)).status).to.equal(200);
    const limited = await tasksWithKey(dev, issued.key);
    expect([limited.status, limited.body.error?.code]).to.deep.equal([429, 'API_KEY_RATE_LIMITED']);
    expect(Number(limited.headers.get('retry-after'))).to.be.greaterThan(0);
  });

  it('sends a signed task.created webhook, retried until the receiver answers 2xx (500, 500, then 200)', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.statusCode = received.length <= 2 ? 500 : 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const owner = createClient({ baseUrl: dev.url, token: await dev.token(`owner-${randomUUID()}`, ['tasks:read', 'tasks:write'], 'acme') });
      const endpoint = await owner.webhookEndpoints.post({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, eventTypes: ['task.created'] });
      expect(endpoint.secret).to.match(/^whsec_/);
      const task = await owner.tasks.post({ title: 'Tell the receiver' });

      await eventually(async () => (received.length >= 3 ? true : undefined), 'three delivery attempts');
      // Every attempt is the same message (one webhook-id), signed afresh; the one that succeeded verifies.
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).to.equal(1);
      const last = received[2]!;
      const verified = new Webhook(endpoint.secret).verify(last.body, last.headers as Record<string, string>) as { type: string; data: { id: string } };
      expect(verified.type).to.equal('task.created');
      expect(verified.data.id).to.equal(task.id);
      // Tampering with the body breaks the signature.
      expect(() => new Webhook(endpoint.secret).verify(last.body.replace(task.id, randomUUID()), last.headers as Record<string, string>)).to.throw('No matching signature');
      // Delivered: no further attempt comes.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(received).to.have.length(3);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
