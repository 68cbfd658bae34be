/**
 * The event a cron's function receives, in one place for both interpreters: the CDK constructs give it to the
 * EventBridge Scheduler target as its input (with the scheduler's context attributes as values), and `fw dev` builds
 * it with local values. So the deployed event and the local one have the same fields, the same types and the same
 * `resources` ARN shape, whatever the scheduler would send without an input.
 */

/** Schedules are created in the scheduler's `default` group (the deployed schedule names no group). */
export const SCHEDULE_GROUP = 'default';

/** `arn:aws:scheduler:<region>:<account>:schedule/<group>/<name>`: the ARN of a deployed schedule. */
export function scheduleArn(region: string, account: string, scheduleName: string, group: string = SCHEDULE_GROUP): string {
  return `arn:aws:scheduler:${region}:${account}:schedule/${group}/${scheduleName}`;
}

/** The values of one scheduled invocation (deployed: the scheduler's context attributes and the stack's pseudo parameters). */
export interface SchedulerEventValues {
  /** Unique per attempted invocation (`<aws.scheduler.execution-id>`). */
  readonly id: string;
  /** The scheduled time, `2026-11-22T09:00:00Z` (`<aws.scheduler.scheduled-time>`). */
  readonly time: string;
  readonly account: string;
  readonly region: string;
  /** The schedule's ARN (`<aws.scheduler.schedule-arn>`). */
  readonly scheduleArn: string;
}

/** The Scheduler's event: `source: "aws.scheduler"`, `detail-type: "Scheduled Event"`, `detail: "{}"` (a string). */
export interface SchedulerEvent {
  readonly 'version': '0';
  readonly 'id': string;
  readonly 'detail-type': 'Scheduled Event';
  readonly 'source': 'aws.scheduler';
  readonly 'account': string;
  readonly 'time': string;
  readonly 'region': string;
  readonly 'resources': readonly string[];
  readonly 'detail': '{}';
}

export function schedulerEvent(values: SchedulerEventValues): SchedulerEvent {
  return {
    'version': '0',
    'id': values.id,
    'detail-type': 'Scheduled Event',
    'source': 'aws.scheduler',
    'account': values.account,
    'time': values.time,
    'region': values.region,
    'resources': [values.scheduleArn],
    'detail': '{}',
  };
}
