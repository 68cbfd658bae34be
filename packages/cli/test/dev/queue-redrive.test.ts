import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { defineApp, type AppDefinition } from '@framework/core';
import { LocalQueue, type InvokeOutcome } from '../../src/dev/engines/index.js';
import { eventually } from './helpers.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('LocalQueue.redrive: dead letters back to the source queue, durably (the dev console\'s Redrive)', () => {
  let dir: string;
  let app: AppDefinition;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-redrive-'));
    fs.mkdirSync(path.join(dir, 'src/queues'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/queues/jobs.ts'), 'export const main = async () => undefined;\n');
    const defined = defineApp({ base: { name: 'redrive', region: 'eu-west-1' }, security: { scopes: {} }, envs: { dev: { preset: 'free' } }, rootDir: dir, stage: 'dev', infrastructure: { queues: [{ id: 'jobs' }] } });
    // A 0 s visibility timeout (below what the cloud allows) keeps the test fast; the engine reads it as given.
    app = { ...defined, queues: defined.queues.map((q) => ({ ...q, visibilityTimeout: 0, maxReceiveCount: 1 })) };
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('sends each dead letter again as a new message; after a restart the dead letters stay gone and nothing is delivered twice', async () => {
    const file = path.join(dir, 'jobs.log');
    let fixed = false;
    const delivered: string[] = [];
    const invoke = async (_unit: unknown, event: unknown): Promise<InvokeOutcome> => {
      if (!fixed) return { ok: false, reason: 'error', errorType: 'Error', errorMessage: 'poison' } as InvokeOutcome;
      for (const record of (event as { Records: { body: string }[] }).Records) delivered.push(record.body);
      return { ok: true, value: { batchItemFailures: [] } } as InvokeOutcome;
    };
    const queue = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke }, file);
    await queue.send('poison');
    await eventually(async () => (queue.deadLetters.length === 1 ? true : undefined), 10_000, 'the dead letter');
    expect(await queue.redrive()).to.equal(1);
    expect(queue.deadLetters).to.deep.equal([]);
    fixed = true;
    // Delivered once the redriven message is due (it is, at once): the consumer now succeeds.
    await eventually(async () => (delivered.length === 1 && queue.depth === 0 ? true : undefined), 10_000, 'the redriven message consumed');
    expect(delivered).to.deep.equal(['poison']);
    await queue.close();

    const reopened = await LocalQueue.open('jobs', { currentApp: () => app, log: quiet, invoke }, file);
    try {
      expect(reopened.deadLetters).to.deep.equal([]);
      expect(reopened.depth).to.equal(0);
      expect(await reopened.redrive()).to.equal(0);
    } finally {
      await reopened.close();
    }
  });
});
