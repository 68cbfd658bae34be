import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO, eventually, json, startDev, type RunningDev } from './helpers.js';

const MESSAGES = 1000;
const MAX_RECEIVES = 3;
/** Every 50th message always fails: it must end in the dead-letter queue after exactly MAX_RECEIVES receives. */
const isPoison = (n: number) => n % 50 === 0;

/**
 * A project whose queue consumer appends one line per record it receives (message id, number, receive count) to a
 * file outside the project, and reports the poison records as failed. It is slow on purpose (30 ms a batch of 10),
 * so `fw dev` can be killed while it delivers.
 */
function writeProject(deliveries: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-queue-kill-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'queue-kill', private: true, type: 'module' }),
    'fw.config.ts': `import { defineApp } from '@framework/core';
export default defineApp({
  base: { name: 'kill', region: 'eu-west-1' },
  security: { scopes: {} },
  envs: { dev: { preset: 'free' } },
  infrastructure: { queues: [{ id: 'jobs', batchSize: 10, timeout: 2, visibilityTimeout: 2, maxReceiveCount: ${MAX_RECEIVES} }] },
});
`,
    'src/queues/jobs.ts': `import { appendFileSync } from 'node:fs';

export const main = async (event: { Records: { messageId: string; body: string; attributes: { ApproximateReceiveCount: string } }[] }) => {
  const failed: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    const { n, poison } = JSON.parse(record.body) as { n: number; poison: boolean };
    appendFileSync(${JSON.stringify(deliveries)}, JSON.stringify({ id: record.messageId, n, count: Number(record.attributes.ApproximateReceiveCount) }) + '\\n');
    if (poison) failed.push({ itemIdentifier: record.messageId });
  }
  await new Promise((resolve) => setTimeout(resolve, 30));
  return { batchItemFailures: failed };
};
`,
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

type Delivery = { id: string; n: number; count: number };
const readDeliveries = (file: string): Delivery[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Delivery) : [];

describe('fw dev queues survive kill -9 (1,000 messages, killed mid-delivery)', function () {
  this.timeout(240_000);
  let root: string;
  let scratch: string;
  const running: RunningDev[] = [];

  before(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-queue-kill-deliveries-'));
    root = writeProject(path.join(scratch, 'deliveries.jsonl'));
  });
  after(async () => {
    await Promise.all(running.map((dev) => dev.stop()));
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('delivers every acknowledged message at least once after a restart, keeping receive counts and dead letters', async () => {
    const deliveries = path.join(scratch, 'deliveries.jsonl');
    const first = await startDev(root);
    running.push(first);

    // Given 1,000 messages, each acknowledged (202) by fw dev
    const sent = new Map<string, number>();
    for (let start = 0; start < MESSAGES; start += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const n = start + i;
          const response = await fetch(`${first.url}/_dev/queues/jobs/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ body: JSON.stringify({ n, poison: isPoison(n) }) }),
          });
          expect(response.status, await response.clone().text()).to.equal(202);
          sent.set((await json(response)).messageId, n);
        }),
      );
    }
    expect(sent.size).to.equal(MESSAGES);

    // When fw dev is killed (SIGKILL: no clean-up at all) while the consumer works through them
    await eventually(async () => (readDeliveries(deliveries).length >= 300 ? true : undefined), 60_000, '300 deliveries');
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    const beforeKill = readDeliveries(deliveries);
    expect(new Set(beforeKill.map((d) => d.id)).size, 'the kill came after every message was delivered').to.be.lessThan(MESSAGES);

    // Then a restarted fw dev delivers the rest
    const second = await startDev(root);
    running.push(second);
    expect(second.output()).to.match(/queue jobs: kept from the last run: [1-9]\d* messages/);
    const poison = [...sent].filter(([, n]) => isPoison(n)).map(([id]) => id);
    const state = await eventually(
      async () => {
        const queue = await json(await fetch(`${second.url}/_dev/queues/jobs`));
        return queue.depth === 0 && queue.deadLetters === poison.length ? queue : undefined;
      },
      120_000,
      'an empty queue with every poison message dead-lettered',
    );
    expect(state).to.include({ depth: 0, deadLetters: poison.length });

    // None lost: every acknowledged message was delivered, the good ones at least once, the poison ones to the DLQ
    const all = readDeliveries(deliveries);
    const delivered = new Set(all.map((d) => d.id));
    const missing = [...sent.keys()].filter((id) => !delivered.has(id));
    expect(missing, 'acknowledged messages never delivered').to.deep.equal([]);
    expect(all.every((d) => sent.get(d.id) === d.n), 'a delivery of a message that was never sent').to.equal(true);

    // Receive counts kept across the kill: for each message they only ever go up (never restart at 1)
    const counts = new Map<string, number[]>();
    for (const d of all) counts.set(d.id, [...(counts.get(d.id) ?? []), d.count]);
    const reset = [...counts].filter(([, seen]) => seen.some((count, i) => i > 0 && count <= seen[i - 1]!));
    expect(reset, 'messages whose receive count went back').to.deep.equal([]);

    // Dead letters: exactly the poison messages, each received MAX_RECEIVES times in all
    const dead = await json(await fetch(`${second.url}/_dev/queues/jobs/dead-letters`));
    expect(dead.messages.map((m: { messageId: string }) => m.messageId).sort()).to.deep.equal([...poison].sort());
    expect(new Set(dead.messages.map((m: { receiveCount: number }) => m.receiveCount))).to.deep.equal(new Set([MAX_RECEIVES]));
    for (const id of poison) expect(Math.max(...counts.get(id)!), `receives of poison message ${id}`).to.be.at.most(MAX_RECEIVES);

    // And the dead letters are still there after a clean stop and another start
    await second.stop();
    const third = await startDev(root);
    running.push(third);
    const again = await json(await fetch(`${third.url}/_dev/queues/jobs/dead-letters`));
    expect(again.messages).to.have.length(poison.length);
    expect((await json(await fetch(`${third.url}/_dev/queues/jobs`))).depth).to.equal(0);
  });
});
