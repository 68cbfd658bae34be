import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import { startApp, type HttpClient, type TestApp } from '../src/index.js';
import { copyExample } from './helpers/example-copy.js';

/**
 * The example's queue consumer replaced by one that runs a three-step saga; its worker thread dies in the middle
 * step on the message's first receive (a crash: the run's progress is all that is left of it).
 */
const SAGA_CONSUMER = `import { createDefaultSagaStore, saga, taskHandler, type SQSEvent } from '@framework/runtime';

let receives = 0;
const fulfil = saga<{ order: string }>('fulfil-order', [
  { name: 'reserve', run: () => 'reserved' },
  { name: 'charge', run: () => (receives === 1 ? process.exit(1) : 'charged') },
  { name: 'ship', run: () => 'shipped' },
], { store: createDefaultSagaStore() });

export const main = taskHandler<SQSEvent>(async (event, ctx) => {
  for (const record of event.Records) {
    receives = Number(record.attributes.ApproximateReceiveCount);
    const input = JSON.parse(record.body) as { order: string };
    await fulfil.run(input, { id: input.order, lambdaContext: ctx.lambdaContext });
  }
});
`;

describe('sagas on the clock (the example app, its consumer running a saga)', () => {
  let example: ReturnType<typeof copyExample>;
  let app: TestApp<HttpClient>;

  before(async () => {
    example = copyExample();
    fs.writeFileSync(path.join(example.dir, 'src', 'queues', 'task-events.ts'), SAGA_CONSUMER);
    app = await startApp({ root: example.dir });
  });
  after(async () => {
    await app?.stop();
    example?.remove();
  });

  it('a run whose worker crashed resumes at the redelivery drain() moves to, and its steps are in the trace', async () => {
    await app.queues['task-events']!.send({ order: 'o-1' });
    const trace = await app.drain();
    // First receive: reserve done, the thread died in charge. The redelivery, a visibility timeout (5 s) later on
    // the test's clock, finds the run's lease over (it lasted the invocation's 5 s) and resumes after reserve.
    expect(trace.filter((t) => t.kind === 'queue').map((t) => t.ok)).to.deep.equal([false, true]);
    expect(trace.filter((t) => t.kind === 'saga').map((t) => `${t.id} ${t.ok}`)).to.deep.equal(['fulfil-order/reserve true', 'fulfil-order/charge true', 'fulfil-order/ship true']);
    const [first, second] = trace.filter((t) => t.kind === 'queue').map((t) => Date.parse(t.time));
    expect(second! - first!).to.equal(5_000);
    expect(app.queues['task-events']!.deadLetters()).to.deep.equal([]);
  });
});
