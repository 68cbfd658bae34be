import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createLogger, setRootLogger, type QueueClient, type SendOptions } from '@framework/runtime';
import { createWebhooks, IntegrationsError, verifyStandardWebhook, type WebhookDelivery, type Webhooks } from '../../src/index.js';
import { startTestDatabase, type TestDatabase } from '../support/pglite-database.js';

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
  });
  beforeEach(() => {
    received.length = 0;
    enqueued.length = 0;
    answers = [];
    webhooks = createWebhooks({ queue, db: () => database.db, maxAttempts: 3, backoff: { baseSeconds: 4, maxSeconds: 900 } });
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
