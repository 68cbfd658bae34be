import { cronFunctionName, cronRuleName } from '../naming/unit-names.js';
import { parseSchedule, type ScheduleSpec } from '../schedule/schedule-expression.js';
import type { FunctionUnit } from './function-unit.js';
import type { IntentKindModule } from './intent-kind.js';

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
export const cronsKind: IntentKindModule<readonly CronDefinition[]> = {
  outputs: [],
  build: ({ project, stage, config, infrastructure, files }) => {
    const defaults = config.settings.functions;
    return (infrastructure.schedules ?? []).map((s) => {
      const file = files.crons.find((f) => f.id === s.id)!;
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
