import type { Codec } from '../config/codec.js';
import { cronFunctionName, cronRuleName } from '../naming/unit-names.js';
import { parseSchedule, type ScheduleSpec } from '../schedule/schedule-expression.js';
import type { FunctionUnit } from './function-unit.js';
import type { CodecKit, IntentKindModule } from './intent-kind.js';

declare module './function-unit.js' {
  /** `cron`: this kind's functions. */
  interface UnitKinds {
    readonly cron: true;
  }
}

/** A scheduled task (`src/crons/<id>.ts`). */
export interface ScheduleIntent {
  readonly id: string;
  /** Exactly one of `{ cron: '0 12 * * ? *' }` (six fields, UTC) or `{ rate: '5 minutes' }`. */
  readonly schedule: ScheduleSpec;
  /** Seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  /** MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  readonly description?: string;
  /** @default true */
  readonly enabled?: boolean;
  /** Retries by the scheduler when the function fails (with exponential backoff). @default 2 */
  readonly retryAttempts?: number;
}

/** The codec of `infrastructure.schedules` (built from the kit: this module stays free of io-ts at run time). */
export function schedulesCodec({ c, t, id, memorySize, timeout }: CodecKit): Codec<readonly ScheduleIntent[]> {
  const scheduleCodec = new t.Type<ScheduleSpec, ScheduleSpec, unknown>(
    'exactly one of { cron: "<six fields>" } or { rate: "<n> <unit>" }',
    (u): u is ScheduleSpec => c.isPlainObject(u) && (typeof u.cron === 'string') !== (typeof u.rate === 'string'),
    (u, ctx) => {
      const fail = (text: string) => t.failure<ScheduleSpec>(u, ctx, c.problemMessage('FW_ERR_CONFIG_INVALID_VALUE', text));
      if (!c.isPlainObject(u)) return fail(`expected { cron: "0 12 * * ? *" } or { rate: "5 minutes" }, got ${c.describeValue(u)}`);
      const keys = Object.keys(u);
      const hasCron = u.cron !== undefined;
      const hasRate = u.rate !== undefined;
      if (hasCron === hasRate) return fail(`expected exactly one of "cron" or "rate", got ${hasCron ? 'both' : keys.length ? keys.map((k) => JSON.stringify(k)).join(', ') : 'neither'}`);
      const extra = keys.filter((k) => k !== 'cron' && k !== 'rate');
      if (extra.length) return fail(`expected only "cron" or "rate", got also ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
      const value = hasCron ? u.cron : u.rate;
      if (typeof value !== 'string') return fail(`expected a string for "${hasCron ? 'cron' : 'rate'}", got ${c.describeValue(value)}`);
      const parsed = parseSchedule(hasCron ? { cron: value } : { rate: value });
      if (!parsed.ok) return fail(`${hasCron ? 'cron' : 'rate'} ${parsed.reason}`);
      return t.success(hasCron ? { cron: value } : { rate: value });
    },
    t.identity,
  );
  return c.array(
    c.struct<ScheduleIntent>('a schedule intent { id, schedule }', {
      id: c.required(id),
      schedule: c.required(scheduleCodec),
      timeout: c.optional(timeout),
      memorySize: c.optional(memorySize),
      description: c.optional(c.text(256)),
      enabled: c.optional(c.boolean),
      retryAttempts: c.optional(c.integer(0, 185)),
    }),
  );
}

export interface CronDefinition extends FunctionUnit {
  readonly kind: 'cron';
  readonly ruleName: string;
  readonly schedule: ScheduleSpec;
  /** `cron(0 12 * * ? *)` or `rate(5 minutes)`, UTC. */
  readonly expression: string;
  readonly enabled: boolean;
  readonly retryAttempts: number;
  readonly description?: string;
}

/** `infrastructure.schedules` with `src/crons/<id>.ts`: a function and the schedule that runs it. */
export const cronsKind: IntentKindModule<readonly ScheduleIntent[], readonly CronDefinition[], never, 'schedules'> = {
  configKey: 'schedules',
  ids: 'flat',
  handlerFolder: { dir: 'src/crons', what: 'cron', example: (id) => `{ id: '${id}', schedule: { rate: '1 hour' } }` },
  codec: schedulesCodec,
  outputs: [],
  build: (intents, { project, stage, config, files }) => {
    const defaults = config.settings.functions;
    return (intents ?? []).map((s) => {
      const file = (files.schedules ?? []).find((f) => f.id === s.id)!;
      const parsed = parseSchedule(s.schedule);
      return {
        kind: 'cron',
        id: s.id,
        file: file.file,
        functionName: cronFunctionName(project, stage, s.id),
        ruleName: cronRuleName(project, stage, s.id),
        memorySize: s.memorySize ?? defaults.memorySize,
        timeout: s.timeout ?? defaults.timeout,
        environment: {},
        schedule: s.schedule,
        expression: parsed.ok ? parsed.expression : '',
        enabled: s.enabled ?? true,
        retryAttempts: s.retryAttempts ?? 2,
        description: s.description,
      };
    });
  },
  environment: () => ({}),
  units: (crons) => crons,
};
