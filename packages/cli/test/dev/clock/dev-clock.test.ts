import { expect } from 'chai';
import { DevClock } from '../../../src/dev/clock/index.js';
import { DevServerError } from '../../../src/errors.js';

describe('DevClock', () => {
  describe('manual', () => {
    it('stands still until advanced; advance fires the timers due in the window in time order, each at its time', async () => {
      const clock = new DevClock('manual', Date.UTC(2026, 0, 1));
      const seen: [string, number][] = [];
      clock.setTimer(Date.UTC(2026, 0, 1, 2), () => seen.push(['b', clock.now()]));
      clock.setTimer(Date.UTC(2026, 0, 1, 1), () => seen.push(['a', clock.now()]));
      clock.setTimer(Date.UTC(2026, 0, 3), () => seen.push(['later', clock.now()]));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(clock.now()).to.equal(Date.UTC(2026, 0, 1));
      await clock.advance(86_400_000);
      expect(seen).to.deep.equal([
        ['a', Date.UTC(2026, 0, 1, 1)],
        ['b', Date.UTC(2026, 0, 1, 2)],
      ]);
      expect(clock.now()).to.equal(Date.UTC(2026, 0, 2));
    });

    it('advance waits for held work, including a retry it sleeps for within the window', async () => {
      const clock = new DevClock('manual', 0);
      const steps: string[] = [];
      clock.setTimer(1000, () => {
        const hold = clock.hold();
        void (async () => {
          steps.push(`first at ${clock.now()}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
          await hold.sleepUntil(clock.now() + 2000);
          steps.push(`retry at ${clock.now()}`);
          hold.release();
        })();
      });
      await clock.advance(5000);
      expect(steps).to.deep.equal(['first at 1000', 'retry at 3000']);
    });

    it('drain runs one-off timers (jumping to their time) and leaves periodic ones', async () => {
      const clock = new DevClock('manual', 0);
      const seen: string[] = [];
      clock.setTimer(60_000, () => seen.push('cron'), { periodic: true });
      clock.setTimer(5000, () => {
        seen.push('redelivery');
        clock.setTimer(clock.now() + 5000, () => seen.push('second redelivery'));
      });
      await clock.drain();
      expect(seen).to.deep.equal(['redelivery', 'second redelivery']);
      expect(clock.now()).to.equal(10_000);
      expect(clock.pending).to.equal(0);
    });

    it('a timer due now waits for drain (nothing runs before the test moves the clock)', async () => {
      const clock = new DevClock('manual', 0);
      let fired = false;
      clock.setTimer(0, () => (fired = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fired).to.equal(false);
      await clock.drain();
      expect(fired).to.equal(true);
    });

    it('a cancelled timer does not fire', async () => {
      const clock = new DevClock('manual', 0);
      let fired = false;
      clock.setTimer(10, () => (fired = true)).cancel();
      await clock.advance(100);
      expect(fired).to.equal(false);
    });

    it('records the trace of what ran during advance', async () => {
      const clock = new DevClock('manual', 0);
      clock.setTimer(10, () => clock.record({ kind: 'cron', id: 'nightly', ok: true }));
      expect(await clock.advance(100)).to.deep.equal([{ time: new Date(10).toISOString(), kind: 'cron', id: 'nightly', ok: true }]);
    });
  });

  describe('bounded', () => {
    it('a message re-sent at once for ever: advance and drain stop with FW_ERR_DEV_CLOCK_RUNAWAY naming the unit', async () => {
      const clock = new DevClock('manual', 0);
      const resend = (): void => {
        clock.setTimer(clock.now(), () => {
          clock.record({ kind: 'queue', id: 'echo', ok: false, error: 'Error: again' });
          resend();
        });
      };
      resend();
      for (const call of [() => clock.advance(1000, 50), () => clock.drain(50)]) {
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(DevServerError).with.property('code', 'FW_ERR_DEV_CLOCK_RUNAWAY');
        expect((error as Error).message).to.match(/still pending after 50 .*queue echo ran most \(50 runs, 50 failed, last: Error: again\)/);
      }
    });

    it('a retry due after the window stays pending for the next advance or drain', async () => {
      const clock = new DevClock('manual', 0);
      const runs: number[] = [];
      clock.setTimer(1000, () => {
        const hold = clock.hold();
        void (async () => {
          runs.push(clock.now());
          await hold.sleepUntil(clock.now() + 60_000);
          runs.push(clock.now());
          hold.release();
        })();
      });
      await clock.advance(5000);
      expect(runs).to.deep.equal([1000]);
      expect(clock.now()).to.equal(5000);
      expect(clock.pending).to.equal(1);
      await clock.drain();
      expect(runs).to.deep.equal([1000, 61_000]);
    });
  });

  describe('real', () => {
    it('reads the machine clock and refuses advance and drain, saying how to get a manual clock', async () => {
      const clock = new DevClock();
      expect(Math.abs(clock.now() - Date.now())).to.be.lessThan(1000);
      await clock.advance(1).then(
        () => expect.fail('advance on a real clock'),
        (error: Error) => expect(error.message).to.contain("clock: 'manual'"),
      );
    });

    it('fires a timer when its time has come', async () => {
      const clock = new DevClock();
      const fired = await new Promise<number>((resolve) => clock.setTimer(Date.now() + 20, () => resolve(Date.now())));
      expect(fired).to.be.a('number');
    });
  });
});
