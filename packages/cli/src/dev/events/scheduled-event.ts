import { randomBytes } from 'node:crypto';
import { scheduleArn, schedulerEvent, type SchedulerEvent } from '@framework/core';

/** The account id local events carry (ARNs of local resources). */
export const LOCAL_ACCOUNT_ID = '000000000000';

/**
 * The event a cron's function receives from EventBridge Scheduler (core's `schedulerEvent`, the same the deployed
 * schedule sends): the schedule's ARN in the `default` group, the scheduled time to the second, an execution id.
 */
export function buildScheduledEvent(region: string, scheduleName: string, time: Date = new Date()): SchedulerEvent {
  return schedulerEvent({
    // The scheduler's execution ids are 16 lower-case hex-like characters (`d32c5kddcf5bb8c3`).
    id: randomBytes(8).toString('hex'),
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    account: LOCAL_ACCOUNT_ID,
    region,
    scheduleArn: scheduleArn(region, LOCAL_ACCOUNT_ID, scheduleName),
  });
}
