import { expect } from 'chai';
import { RequestActivity } from '../../src/dev/server/request-activity.js';

describe('RequestActivity (fw dev background work waits for quiet)', () => {
  it('is quiet only once no request is in flight and none ended within the quiet time', async () => {
    const activity = new RequestActivity();
    // Given no request ever: quiet at once
    expect(activity.busy(50)).to.equal(false);
    await activity.quiet(50);
    // When a request is in flight
    let answer!: () => void;
    void activity.track(new Promise<void>((resolve) => (answer = resolve)));
    const events: string[] = [];
    const quiet = activity.quiet(40).then(() => events.push('quiet'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Then the wait goes on for as long as it is in flight
    expect(events).to.deep.equal([]);
    expect(activity.busy(40)).to.equal(true);
    answer();
    events.push('answered');
    await new Promise((resolve) => setImmediate(resolve));
    // And still right after its answer (within the quiet time)
    expect(activity.busy(40)).to.equal(true);
    await quiet;
    expect(events).to.deep.equal(['answered', 'quiet']);
    expect(activity.busy(40)).to.equal(false);
  });

  it('counts a failed request as ended, and stops waiting when told to', async () => {
    const activity = new RequestActivity();
    await activity.track(Promise.reject(new Error('handler threw'))).catch(() => undefined);
    await activity.quiet(20);
    void activity.track(new Promise(() => undefined));
    let stop = false;
    const stopped = activity.quiet(20, () => stop);
    setTimeout(() => (stop = true), 30);
    // Resolving at all while a request hangs is the point (a hang fails the test at its timeout)
    await stopped;
    expect(activity.busy(20)).to.equal(true);
  });
});
