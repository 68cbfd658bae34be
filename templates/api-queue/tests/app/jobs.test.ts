import { expect } from 'chai';
import { app } from '../support/app.js';

// The queue as the running app has it: a message waits until the test drains the queue (the clock only moves when a
// test moves it), then the consumer runs; a message it keeps failing on ends in the dead-letter queue.
describe('the jobs queue (the running app)', () => {
  it('POST /jobs queues the job (202); drain() delivers it to the consumer', async () => {
    const queued = await app().as({ roles: ['editor'] }).post('/jobs', { kind: 'rebuild-report', target: 'march' });
    expect(queued.status).to.equal(202);
    expect(app().queues.jobs.messages().map((m: { body: string }) => JSON.parse(m.body))).to.deep.equal([{ kind: 'rebuild-report', target: 'march' }]);
    const trace = await app().drain();
    expect(trace.filter((t: { kind: string; id: string; ok: boolean }) => t.kind === 'queue' && t.id === 'jobs' && t.ok)).to.have.length(1);
    expect(app().queues.jobs.messages()).to.deep.equal([]);
  });

  it('a job the consumer refuses is retried, then moved to the dead-letter queue', async () => {
    const body = JSON.stringify({ kind: 'unknown', target: `poison-${Date.now()}` });
    await app().queues.jobs.send(body);
    await app().drain();
    expect(app().queues.jobs.deadLetters().filter((d: { body: string }) => d.body === body)).to.have.length(1);
  });

  it('a member may not queue a job (403)', async () => {
    expect((await app().as({ roles: ['member'] }).post('/jobs', { kind: 'rebuild-report', target: 'march' })).status).to.equal(403);
  });
});
