import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ENV, queueEnv } from '@framework/core';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { main as consumer } from '../src/queues/jobs.js';
import { main as postJob } from '../src/routes/jobs/post.js';
import { call, lambdaContext } from './support/http-event.js';

function sqsRecord(messageId: string, body: unknown): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'tests', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:my-app-dev-jobs',
    awsRegion: 'us-east-1',
  };
}

describe('jobs queue', () => {
  it('the consumer handles every record and reports only the invalid one as a batch item failure', async () => {
    // Given a batch with a valid and an invalid job
    const event: SQSEvent = {
      Records: [sqsRecord('m1', { kind: 'rebuild-report', target: 'march' }), sqsRecord('m2', { kind: 'unknown', target: 'x' })],
    };
    // When the consumer runs
    const result = (await consumer(event, lambdaContext('my-app-dev-queue-jobs'))) as { processed: number; batchItemFailures: { itemIdentifier: string }[] };
    // Then the valid one is processed and only the invalid one will be redelivered
    expect(result.processed).to.equal(1);
    expect(result.batchItemFailures).to.deep.equal([{ itemIdentifier: 'm2' }]);
  });

  describe('POST /jobs', () => {
    // The dev server's queue endpoint, played by a local HTTP server: the route sends exactly what it sends to it.
    let server: http.Server;
    const received: unknown[] = [];
    const saved: Record<string, string | undefined> = {};
    before(async () => {
      server = http.createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          received.push({ url: req.url, body: JSON.parse(text) as unknown });
          res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ messageId: 'local-1' }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const name of [ENV.devEndpoint, queueEnv('jobs').url]) saved[name] = process.env[name];
      process.env[ENV.devEndpoint] = base;
      process.env[queueEnv('jobs').url] = `${base}/_dev/queues/jobs`;
    });
    after(async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await new Promise((resolve) => server.close(resolve));
    });

    it('queues the job and answers 202 with the message id', async () => {
      const job = { kind: 'send-welcome-email', target: 'ada@example.com' };
      const response = await call(postJob, { method: 'POST', path: '/jobs', body: job, scopes: ['tasks:write'] });
      expect(response.statusCode).to.equal(202);
      expect(response.body).to.deep.equal({ messageId: 'local-1' });
      expect(received).to.deep.equal([{ url: '/_dev/queues/jobs/messages', body: { body: JSON.stringify(job) } }]);
    });

    it('refuses an invalid job with 400 and queues nothing', async () => {
      const count = received.length;
      const response = await call(postJob, { method: 'POST', path: '/jobs', body: { kind: 'nope' }, scopes: ['tasks:write'] });
      expect(response.statusCode).to.equal(400);
      expect(received.length).to.equal(count);
    });

    it('refuses a caller without the tasks:write scope (403)', async () => {
      const response = await call(postJob, { method: 'POST', path: '/jobs', body: { kind: 'rebuild-report', target: 'x' }, scopes: ['tasks:read'] });
      expect(response.statusCode).to.equal(403);
    });
  });
});
