import { ENV } from '../environment/variables.js';
import { idempotencyTableName } from '../naming/unit-names.js';
import { fixedValue, type IntentKindModule } from './intent-kind.js';

/** The store's output: its table (the constructs provide the deployed table's name). */
export const IDEMPOTENCY_OUTPUTS = ['tableName'] as const;

/** The idempotency and saga store of a stage: every app has one (no intent declares it). */
export interface IdempotencyDefinition {
  /** `{project}-{stage}-idempotency`: the table's name deployed and the value of `FW_IDEMPOTENCY_TABLE` everywhere. */
  readonly tableName: string;
}

/** The stage's idempotency and saga store (the table is deployed only when a function uses it). */
export const idempotencyKind: IntentKindModule<never, IdempotencyDefinition, (typeof IDEMPOTENCY_OUTPUTS)[number]> = {
  outputs: IDEMPOTENCY_OUTPUTS,
  build: (_none, { project, stage }) => ({ tableName: idempotencyTableName(project, stage) }),
  // The stage's table name, the same value locally and deployed (the table is created with exactly this name).
  environment: ({ tableName }) => ({ [ENV.idempotencyTable]: fixedValue(tableName) }),
  units: () => [],
};

/** The store has one instance per stage; its output is that of id `default`. */
export const IDEMPOTENCY_ID = 'default';
