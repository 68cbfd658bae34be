import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { sql } from '@framework/data';
import { createLogger, setRootLogger, type QueueClient, type SendOptions } from '@framework/runtime';
import { createWebhooks, EnvelopeCipher, IntegrationsError, LocalKeyFileProvider, verifyStandardWebhook, VaultKeyError, WEBHOOK_SECRETS_ENCRYPTED_MIGRATION, type WebhookDelivery, type Webhooks } from '../../src/index.js';
import { startTestDatabase, type TestDatabase } from '../support/pglite-database.js';

/** The vault's key as `fw dev` keeps it (a key file), in a folder of the test's own. */
function testCipher(): { cipher: EnvelopeCipher; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fw-webhooks-vault-'));
  return { cipher: new EnvelopeCipher(new LocalKeyFileProvider(path.join(dir, 'vault.key'))), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('Webhooks (out): one attempt per queue message', () => {
  let database: TestDatabase;
  let receiver: Server;
  let url: string;
  let answers: number[];
  const received: { headers: Record<string, string>; body: string }[] = [];
  const enqueued: { body: WebhookDelivery; options: SendOptions }[] = [];
  // The app's queue is the real one on fw dev (the example's test); here only what was sent matters.
  const queue: QueueClient = {
    async send(body: unknown, options: SendOptions = {}) {
      enqueued.push({ body: body as WebhookDelivery, options });
      return { messageId: String(enqueued.length) };
    },
  } as QueueClient;
  let webhooks: Webhooks;
  const vault = testCipher();

  before(async function () {
    this.timeout(60_000);
    setRootLogger(createLogger({ sink: () => undefined }));
    database = await startTestDatabase();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body });
        response.statusCode = answers.shift() ?? 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  after(async () => {
    setRootLogger(undefined);
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    await database?.stop();
    vault.remove();
  });
  beforeEach(() => {
    received.length = 0;
    enqueued.length = 0;
    answers = [];
    webhooks = createWebhooks({ queue, db: () => database.db, maxAttempts: 3, backoff: { baseSeconds: 4, maxSeconds: 900 }, cipher: vault.cipher });
  });

  it('stores the signing secret encrypted: the row holds no secret, and a delivery still signs with it', async () => {
    const endpoint = await webhooks.register('owner-enc', url, ['*']);
    const row = await database.db.one<Record<string, unknown>>(sql`SELECT * FROM fw_webhook_endpoints WHERE id = ${endpoint.id}`);
    const stored = JSON.stringify(row);
    expect(stored).not.to.contain(endpoint.secret);
    expect(stored).not.to.contain(endpoint.secret.slice('whsec_'.length));
    expect(row['legacy_secret']).to.equal(null);
    expect(row['secret_encrypted']).to.match(/^v1\./);
    expect(await webhooks.list('owner-enc')).to.deep.equal([{ id: endpoint.id, owner: 'owner-enc', url, eventTypes: ['*'], createdAt: endpoint.createdAt }]);
    expect((await webhooks.reveal('owner-enc', endpoint.id)).secret).to.equal(endpoint.secret);
    await webhooks.send(endpoint, { type: 'task.created', data: { id: 't9' } });
    answers = [200];
    await webhooks.deliver(enqueued[0]!.body);
    expect(received).to.have.length(1);
    expect(() => verifyStandardWebhook([endpoint.secret], received[0]!.body, received[0]!.headers)).not.to.throw();
  });

  it('refuses a secret ciphertext copied onto another endpoint, and another owner\'s reveal (404)', async () => {
    const a = await webhooks.register('owner-x', url, ['*']);
    const b = await webhooks.register('owner-x', url, ['*']);
    await database.db.query(sql`UPDATE fw_webhook_endpoints SET secret_encrypted = (SELECT secret_encrypted FROM fw_webhook_endpoints WHERE id = ${a.id}) WHERE id = ${b.id}`);
    expect(await webhooks.reveal('owner-x', b.id).then(() => undefined, (error: unknown) => error)).to.be.instanceOf(VaultKeyError);
    expect(await webhooks.reveal('owner-y', a.id).then(() => undefined, (error: unknown) => error)).to.have.property('status', 404);
  });

  it('enqueues one delivery per subscribed endpoint of the owner, never carrying the secret', async () => {
    const endpoint = await webhooks.register('owner-a', url, ['task.created']);
    await webhooks.register('owner-a', url, ['task.deleted']);
    await webhooks.register('owner-b', url, ['*']);
    const ids = await webhooks.sendToOwner('owner-a', { type: 'task.created', data: { id: 't1' } });
    expect(ids).to.have.length(1);
    expect(enqueued.map((e) => e.body)).to.deep.equal([{ kind: 'fw.webhook.delivery', endpointId: endpoint.id, messageId: ids[0], payload: enqueued[0]!.body.payload, attempt: 1 }]);
    expect(JSON.stringify(enqueued)).not.to.contain(endpoint.secret.slice('whsec_'.length));
  });

  it('signs each attempt, re-enqueues a failed one with a growing delay and the same id, and throws after the last (dead letter)', async () => {
    const endpoint = await webhooks.register('owner-c', url, ['*']);
    await webhooks.send(endpoint, { type: 'task.created', data: { id: 't1' } });
    answers = [500, 503, 500];
    await webhooks.deliver(enqueued[0]!.body);
    await webhooks.deliver(enqueued[1]!.body);
    const last = await webhooks.deliver(enqueued[2]!.body).then(() => undefined, (error: unknown) => error);
    expect(last).to.be.instanceOf(IntegrationsError).with.property('code', 'FW_ERR_WEBHOOK_DELIVERY');
    expect(enqueued.map((e) => e.body.attempt)).to.deep.equal([1, 2, 3]);
    // Equal jitter: attempt 1 waits 2-4 s, attempt 2 waits 4-8 s.
    expect(enqueued[1]!.options.delaySeconds).to.be.within(2, 4);
    expect(enqueued[2]!.options.delaySeconds).to.be.within(4, 8);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    for (const r of received) expect(() => verifyStandardWebhook([endpoint.secret], r.body, r.headers)).not.to.throw();
  });

  it('stops at the first 2xx, and drops a message whose endpoint was removed', async () => {
    const endpoint = await webhooks.register('owner-d', url, ['*']);
    await webhooks.send(endpoint.id, { type: 'task.created', data: {} });
    answers = [204];
    await webhooks.deliver(enqueued[0]!.body);
    expect(enqueued).to.have.length(1);
    await webhooks.remove('owner-d', endpoint.id);
    await webhooks.deliver(enqueued[0]!.body);
    expect(received).to.have.length(1);
  });

  it('refuses endpoints that are not http(s) URLs', async () => {
    for (const bad of ['ftp://example.com/x', 'not a url']) {
      expect(await webhooks.register('o', bad, ['*']).then(() => undefined, (error: unknown) => error)).to.be.instanceOf(IntegrationsError).with.property('code', 'FW_ERR_WEBHOOK_OPTIONS');
    }
  });
});

describe('Webhooks (out): secrets stored in plain text before the encryption migration', () => {
  let database: Awaited<ReturnType<typeof startTestDatabase>>;
  const vault = testCipher();
  const queue = { async send() { return { messageId: '1' }; } } as unknown as QueueClient;

  before(async function () {
    this.timeout(60_000);
    setRootLogger(createLogger({ sink: () => undefined }));
    // The first migration only: rows as an app had them before 0002.
    database = await startTestDatabase({ migrations: 1 });
  });
  after(async () => {
    setRootLogger(undefined);
    await database?.stop();
    vault.remove();
  });

  it('ships the migration as WEBHOOK_SECRETS_ENCRYPTED_MIGRATION, the text of migrations/0002_fw_webhook_secrets_encrypted.sql', () => {
    expect(WEBHOOK_SECRETS_ENCRYPTED_MIGRATION).to.equal(readFileSync(new URL('../../migrations/0002_fw_webhook_secrets_encrypted.sql', import.meta.url), 'utf8'));
  });

  it('keeps old endpoints working after the migration and encrypts their secrets (on first read, or all at once)', async () => {
    const secret = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    const rows = await database.db.many<{ id: string }>(sql`INSERT INTO fw_webhook_endpoints (owner, url, secret, event_types) VALUES ('old', 'http://127.0.0.1:9/a', ${secret}, ${['*']}), ('old', 'http://127.0.0.1:9/b', ${secret}, ${['*']}) RETURNING id`);
    await database.migrate();
    const webhooks = createWebhooks({ queue, db: () => database.db, cipher: vault.cipher });
    expect((await webhooks.reveal('old', rows[0]!.id)).secret).to.equal(secret);
    expect(await webhooks.encryptLegacySecrets()).to.equal(1);
    expect(await webhooks.encryptLegacySecrets()).to.equal(0);
    const stored = await database.db.many<{ legacy_secret: string | null; secret_encrypted: string | null }>(sql`SELECT legacy_secret, secret_encrypted FROM fw_webhook_endpoints`);
    expect(stored.map((r) => r.legacy_secret)).to.deep.equal([null, null]);
    expect(JSON.stringify(stored)).not.to.contain(secret.slice('whsec_'.length));
    for (const row of rows) expect((await webhooks.reveal('old', row.id)).secret).to.equal(secret);
  });
});
