import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp, type AppDefinition } from '@framework/core';
import { LocalQueue, type InvokeOutcome } from '../../src/dev/engines/index.js';
import { eventually } from './helpers.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

type Attributes = Record<string, { stringValue: string; dataType: string }>;

describe('LocalQueue: message attributes (the tenant a message carries) reach the consumer, survive a restart and a redrive', () => {
  let dir: string;
  let app: AppDefinition;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-attributes-'));
    fs.mkdirSync(path.join(dir, 'src/queues'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/queues/jobs.ts'), 'export const main = async () => undefined;\n');
    const defined = defineApp({ base: { name: 'attributes', region: 'eu-west-1' }, security: { scopes: {} }, envs: { dev: { preset: 'free' } }, rootDir: dir, stage: 'dev', infrastructure: { queues: [{ id: 'jobs' }] } });
    app = { ...defined, queues: defined.queues.map((q) => ({ ...q, visibilityTimeout: 0, maxReceiveCount: 1 })) };
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('delivers the attributes as the event source mapping does, after a restart and after a redrive too', async () => {
    const file = path.join(dir, 'jobs.log');
    let accept = false;
    const delivered: { body: string; attributes: Attributes }[] = [];
    const invoke = async (_unit: unknown, event: unknown): Promise<InvokeOutcome> => {
      if (!accept) return { ok: false, reason: 'error', errorType: 'Error', errorMessage: 'not yet' } as InvokeOutcome;
      for (const record of (event as { Records: { body: string; messageAttributes: Attributes }[] }).Records) delivered.push({ body: record.body, attributes: record.messageAttributes });
      return { ok: true, value: { batchItemFailures: [] } } as InvokeOutcome;
    };
    // Sent, then the queue closes before the consumer could take it (it fails): the log must keep the attributes.
    const first = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke }, file);
    await first.send('for acme', 0, { 'fw-tenant': 'acme' });
    await eventually(async () => (first.deadLetters.length === 1 ? true : undefined), 10_000, 'the dead letter');
    await first.close();

    const reopened = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke }, file);
    try {
      expect(reopened.deadLetters.map((d) => d.attributes)).to.deep.equal([{ 'fw-tenant': 'acme' }]);
      accept = true;
      expect(await reopened.redrive()).to.equal(1);
      await reopened.send('for nobody');
      await eventually(async () => (delivered.length === 2 ? true : undefined), 10_000, 'both messages consumed');
      const byBody = Object.fromEntries(delivered.map((d) => [d.body, d.attributes]));
      expect(byBody['for acme']).to.deep.equal({ 'fw-tenant': { stringValue: 'acme', stringListValues: [], binaryListValues: [], dataType: 'String' } });
      expect(byBody['for nobody']).to.deep.equal({});
    } finally {
      await reopened.close();
    }
  });
});
