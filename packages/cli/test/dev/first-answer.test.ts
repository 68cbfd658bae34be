import { expect } from 'chai';
import { FirstAnswer } from '../../src/dev/server/first-answer.js';

describe('FirstAnswer (start-up work waits for the first request)', () => {
  it('settles once the first request is answered, not when it arrives, nor when a later one is', async () => {
    const first = new FirstAnswer();
    let answerFirst!: () => void;
    const events: string[] = [];
    void first.track(new Promise<void>((resolve) => (answerFirst = resolve))).then(() => events.push('first answered'));
    // A second request, answered at once, is not the one waited for
    await first.track(Promise.resolve());
    const settled = first.settled(10).then(() => events.push('settled'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).to.deep.equal([]);
    answerFirst();
    await settled;
    expect(events).to.deep.equal(['first answered', 'settled']);
  });

  it('settles after the grace period when no request arrived, and also when the first request failed', async () => {
    // Resolving at all, without any request, is the point (a hang fails the test at its timeout)
    await new FirstAnswer().settled(30);
    const failing = new FirstAnswer();
    await failing.track(Promise.reject(new Error('handler threw'))).catch(() => undefined);
    await failing.settled(60_000);
  });
});
