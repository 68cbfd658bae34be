import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { workerResourceLimits } from '../../src/dev/limits/memory-limits.js';

// What a heap looks like from inside: its limit, and the new space's capacity once a burst of short-lived objects has
// made V8 grow it to its maximum.
const HEAP_SHAPE = `
const v8 = require('node:v8');
const shape = () => {
  let keep = [];
  let newSpace = 0;
  for (let i = 0; i < 3e6; i++) {
    keep.push({ i, s: 'x' + i });
    if (keep.length > 20000) keep = [];
    if (i % 10000 === 0) newSpace = Math.max(newSpace, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
  }
  return { heapLimit: v8.getHeapStatistics().heap_size_limit, newSpace };
};`;

/** The heap of a Lambda function: Node started with the flags Lambda's Node.js bootstrap derives from memorySize. */
function lambdaHeap(memorySize: number): unknown {
  const tenth = Math.floor(memorySize / 10);
  const flags = [`--max-semi-space-size=${Math.floor(tenth / 2)}`, `--max-old-space-size=${memorySize - tenth}`];
  return JSON.parse(execFileSync(process.execPath, [...flags, '-e', `${HEAP_SHAPE}\nprocess.stdout.write(JSON.stringify(shape()))`], { encoding: 'utf8' }));
}

/** The heap of fw dev's function thread: a worker with the resource limits fw dev gives it. */
function workerHeap(memorySize: number): unknown {
  const script = `${HEAP_SHAPE}
const { Worker } = require('node:worker_threads');
const worker = new Worker(HEAP_SHAPE_SOURCE + '\\nrequire("node:worker_threads").parentPort.postMessage(shape())', { eval: true, resourceLimits: ${JSON.stringify(workerResourceLimits(memorySize))} });
worker.on('message', (shape) => { process.stdout.write(JSON.stringify(shape)); worker.terminate(); });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', `const HEAP_SHAPE_SOURCE = ${JSON.stringify(HEAP_SHAPE)};\n${script}`], { encoding: 'utf8' }));
}

describe("function threads' heap limits (as Lambda's Node.js runtime sets them)", function () {
  this.timeout(120_000);
  // 128, 192 and 384 MB are sizes where a young generation of a tenth (two semi-spaces' worth) gave half of Lambda's
  // new space; 256 and 1024 MB are sizes where it happened to give the same.
  for (const memorySize of [128, 192, 256, 384, 1024]) {
    it(`${memorySize} MB: the same heap limit and the same new space as a Lambda function's`, () => {
      expect(workerHeap(memorySize)).to.deep.equal(lambdaHeap(memorySize));
    });
  }

  it('gives at least a one-megabyte semi-space below 20 MB (no zero limit, which V8 would read as its default)', () => {
    expect(workerResourceLimits(10).maxYoungGenerationSizeMb).to.equal(3);
  });
});
