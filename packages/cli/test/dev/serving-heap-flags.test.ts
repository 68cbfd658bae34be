import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { SERVING_V8_FLAGS } from '../../src/dev/functions/serving-heap-flags.js';

// A process that works its heaps as fw dev does, the main thread and two function threads allocating and dropping
// enough to go through scavenges and whole marking cycles, and sets the given V8 flags a third of the way in, as fw
// dev sets its serving flags once started. V8 aborts the process when a flag set at run time does not fit a heap set
// up before it (prints "Check failed").
const CHILD = `
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
const flags = JSON.parse(process.argv[2]);
const churn = "const rounds = []; for (let round = 0; round < 60; round++) { const kept = []; for (let i = 0; i < 40000; i++) kept.push({ i, at: new Date(i), s: 'x' + i }); rounds.push(kept); if (rounds.length > 4) rounds.shift(); }";
const workers = [0, 1].map(() => new Worker(churn + "; require('node:worker_threads').parentPort.postMessage('done')", { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 18, maxOldGenerationSizeMb: 116 } }));
const finished = Promise.all(workers.map((w) => new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); })));
const rounds = [];
for (let round = 0; round < 60; round++) {
  if (round === 20) for (const flag of flags) v8.setFlagsFromString(flag);
  const kept = [];
  for (let i = 0; i < 40000; i++) kept.push({ i, at: new Date(i), s: 'x' + i });
  rounds.push(kept);
  if (rounds.length > 4) rounds.shift();
  await new Promise((resolve) => setImmediate(resolve));
}
await finished;
await Promise.all(workers.map((w) => w.terminate()));
process.stdout.write('ok');
`;

function runWithFlags(flags: readonly string[]): { status: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-heap-flags-'));
  try {
    const script = path.join(dir, 'child.mjs');
    fs.writeFileSync(script, CHILD);
    const run = spawnSync(process.execPath, [script, JSON.stringify(flags)], { encoding: 'utf8' });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("fw dev's serving heap flags (set at run time)", function () {
  this.timeout(120_000);

  it('turn allocation-site pretenuring off', () => {
    expect(SERVING_V8_FLAGS).to.include('--no-allocation-site-pretenuring');
  });

  it('are taken by running heaps: the main and function threads go on through whole marking cycles', () => {
    const run = runWithFlags(SERVING_V8_FLAGS);
    expect(run.output).to.equal('ok');
    expect(run.status).to.equal(0);
  });

  it('(the check sees a flag a running heap cannot take: --single-threaded-gc aborts the same process)', () => {
    const run = runWithFlags(['--single-threaded-gc']);
    expect(run.status).to.not.equal(0);
    expect(run.output).to.include('Check failed');
  });
});
