import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { SQSEvent } from 'aws-lambda';
import { currentTenant, getService, processRecords, queueClient, resetSqsClient, runWithTenant, RuntimeError } from '../../src/index.js';
import { startStandIn, withEnv, type StandIn } from '../fixtures/stand-in-server.js';

describe('queue client: local (dev server contract)', () => {
  let devServer: StandIn;
  let restore: () => void;

  beforeEach(async () => {
    devServer = await startStandIn((_req, res) => res.writeHead(202, { 'content-type': 'application/json' }).end('{"messageId":"local-1"}'));
    restore = withEnv({
      FW_DEV_ENDPOINT: devServer.url,
      FW_QUEUE_EMAIL_OUTBOX_URL: `${devServer.url}/_dev/queues/email-outbox`,
    });
  });
  afterEach(async () => {
    restore();
    await devServer.close();
  });

  it('POSTs { body, delaySeconds } to <queue url>/messages and returns the message id', async () => {
    // given the service's client for queue email-outbox
    const outbox = getService().queues['email-outbox']!;
    // when
    const result = await outbox.send({ to: 'ana@example.com' }, { delaySeconds: 5 });
    // then
    expect(result).to.deep.equal({ messageId: 'local-1' });
    expect(devServer.requests[0]).to.include({ method: 'POST', url: '/_dev/queues/email-outbox/messages' });
    expect(JSON.parse(devServer.requests[0]!.body)).to.deep.equal({ body: '{"to":"ana@example.com"}', delaySeconds: 5 });
  });

  it('carries the current tenant as the fw-tenant message attribute, and nothing outside a tenant', async () => {
    await runWithTenant({ id: 'acme' }, () => queueClient('email-outbox').send('for acme'));
    await queueClient('email-outbox').send('for nobody');
    expect(JSON.parse(devServer.requests[0]!.body)).to.deep.equal({ body: 'for acme', messageAttributes: { 'fw-tenant': 'acme' } });
    expect(JSON.parse(devServer.requests[1]!.body)).to.deep.equal({ body: 'for nobody' });
  });

  it('sends a string body as is', async () => {
    await queueClient('email-outbox').send('plain');
    expect(JSON.parse(devServer.requests[0]!.body)).to.deep.equal({ body: 'plain' });
  });

  it('names the missing variable for an undeclared queue', async () => {
    const error = await queueClient('nope').send({}).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(RuntimeError);
    expect((error as RuntimeError).code).to.equal('FW_ERR_MISSING_ENV');
    expect((error as Error).message).to.contain('FW_QUEUE_NOPE_URL');
  });
});

describe('queue client: deployed (SQS SendMessage)', () => {
  // AWS is mocked here: a loopback stand-in answers SQS's JSON protocol, with the body MD5 the SDK verifies.
  let sqs: StandIn;
  let restore: () => void;

  beforeEach(async () => {
    sqs = await startStandIn((req, res) => {
      const input = JSON.parse(req.body) as { MessageBody: string };
      const md5 = createHash('md5').update(input.MessageBody).digest('hex');
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ MessageId: 'sqs-1', MD5OfMessageBody: md5 }));
    });
    restore = withEnv({
      FW_DEV_ENDPOINT: undefined,
      // the SDK sends to the queue URL's host, so the URL points at the stand-in
      FW_QUEUE_EMAIL_OUTBOX_URL: `${sqs.url}/123456789012/acme-prod-email-outbox`,
      AWS_REGION: 'us-east-2',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      AWS_SESSION_TOKEN: undefined,
      AWS_PROFILE: undefined,
      AWS_ENDPOINT_URL_SQS: sqs.url,
    });
    resetSqsClient();
  });
  afterEach(async () => {
    restore();
    resetSqsClient();
    await sqs.close();
  });

  it('calls SendMessage with the queue URL from FW_QUEUE_<ID>_URL', async () => {
    const result = await queueClient('email-outbox').send({ to: 'ana@example.com' }, { delaySeconds: 10 });
    expect(result).to.deep.equal({ messageId: 'sqs-1' });
    expect(sqs.requests[0]!.headers['x-amz-target']).to.equal('AmazonSQS.SendMessage');
    expect(JSON.parse(sqs.requests[0]!.body)).to.deep.include({
      QueueUrl: `${sqs.url}/123456789012/acme-prod-email-outbox`,
      MessageBody: '{"to":"ana@example.com"}',
      DelaySeconds: 10,
    });
  });

  it('sends the tenant as a String message attribute', async () => {
    await runWithTenant({ id: 'globex' }, () => queueClient('email-outbox').send('x'));
    expect(JSON.parse(sqs.requests[0]!.body)).to.deep.include({ MessageAttributes: { 'fw-tenant': { DataType: 'String', StringValue: 'globex' } } });
  });
});

describe('processRecords: the tenant a message carries', () => {
  const record = (messageId: string, tenant?: string) => ({
    messageId,
    receiptHandle: 'r',
    body: '{}',
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: tenant ? { 'fw-tenant': { stringValue: tenant, stringListValues: [], binaryListValues: [], dataType: 'String' } } : {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:q',
    awsRegion: 'eu-west-1',
  });

  it('runs each record as its tenant, and a record without one (even inside a tenant) as no tenant', async () => {
    const seen: (string | undefined)[] = [];
    const event = { Records: [record('1', 'acme'), record('2'), record('3', 'globex')] } as SQSEvent;
    await runWithTenant({ id: 'outer' }, () => processRecords(event, () => void seen.push(currentTenant()?.id)));
    expect(seen).to.deep.equal(['acme', undefined, 'globex']);
  });
});
