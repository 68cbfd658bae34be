import { FrameworkAppError, ERROR_CODES } from '../errors';
import { Literal, toLiteral, toLiteralObject } from '../files';
import { cronSample, functionSample, queueConsumerSample } from '../files/samples';
import type { InfrastructureIntents } from '../intents';

/** The name of an intent kind: its field in `InfrastructureIntents` and under `defineApp({ infrastructure })`. */
export type IntentKindName = keyof InfrastructureIntents;

/** One intent of a kind: an element of a list kind (`queues`), the struct itself for a single one (`auth`). */
export type IntentOf<K extends IntentKindName> = NonNullable<InfrastructureIntents[K]> extends ReadonlyArray<infer E> ? E : NonNullable<InfrastructureIntents[K]>;

/** What `FrameworkApp` does with a kind's intents besides keeping them, and how `fw.config.ts` writes them. */
export interface IntentKindEntry<K extends IntentKindName> {
  /**
   * A list of intents with unique ids (`true`), or one intent that a later declaration replaces (`false`: the
   * option replaces the template's). Typed from the struct, so it cannot disagree with the option's type.
   */
  readonly many: NonNullable<InfrastructureIntents[K]> extends ReadonlyArray<unknown> ? true : false;
  /** Refuses what the struct's types cannot (throws a `FrameworkAppError` naming the fix). @default - none */
  readonly check?: (intent: IntentOf<K>) => void;
  /** The intent in core's shape, where the struct differs from it. @default - the struct as it is */
  readonly render?: (intent: IntentOf<K>) => Literal;
  /** A sample handler file, written once when the project has none at that path. @default - none */
  readonly sample?: (intent: IntentOf<K>) => { readonly path: string; readonly contents: string };
  /** The `@framework/*` package an app declaring this kind depends on. @default - none */
  readonly dependency?: string;
}

/**
 * Every intent kind of the projen side, in the order `fw.config.ts` lists them (and `FrameworkApp` declares them):
 * the one table the options, `addIntents` and the renderer read. A field added to `InfrastructureIntents` does not
 * compile until it has its entry here; a config-only kind's entry is usually `{ many: true }`.
 */
export const INTENT_KINDS: { readonly [K in IntentKindName]-?: IntentKindEntry<K> } = {
  auth: { many: false },
  databases: { many: true, dependency: 'data' },
  storage: { many: true, dependency: 'storage' },
  queues: { many: true, sample: (queue) => ({ path: `src/queues/${queue.id}.ts`, contents: queueConsumerSample(queue.id) }) },
  schedules: {
    many: true,
    check: (schedule) => {
      if ((schedule.cron === undefined) === (schedule.rate === undefined)) {
        throw new FrameworkAppError(ERROR_CODES.invalidOption, `schedules "${schedule.id}": give exactly one of cron (e.g. '0 12 * * ? *') or rate (e.g. '5 minutes')`);
      }
    },
    // Core's union `schedule: { cron } | { rate }`, right after the id as a person would write it.
    render: ({ cron, rate, ...rest }) => ({ id: rest.id, schedule: cron !== undefined ? { cron } : { rate }, ...toLiteralObject({ ...rest, id: undefined }) }),
    sample: (schedule) => ({ path: `src/crons/${schedule.id}.ts`, contents: cronSample(schedule.id) }),
  },
  functions: {
    many: true,
    // Core's `environment` is a record; the struct carries it as a list of name/value pairs.
    render: ({ environment, ...rest }) => ({
      ...toLiteralObject(rest),
      environment: environment?.length ? Object.fromEntries(environment.map((v) => [v.name, v.value])) : undefined,
    }),
    sample: (fn) => ({ path: `src/functions/${fn.id}.ts`, contents: functionSample(fn.id) }),
  },
  caches: { many: true },
  ws: { many: false },
  notify: { many: false },
};

/** The kinds, in table order. */
export const INTENT_KIND_NAMES = Object.keys(INTENT_KINDS) as IntentKindName[];

/** A kind's entry, typed by its name. */
export function intentKind<K extends IntentKindName>(kind: K): IntentKindEntry<K> {
  return INTENT_KINDS[kind] as IntentKindEntry<K>;
}

/** One intent in core's shape. */
export function renderIntent<K extends IntentKindName>(kind: K, intent: IntentOf<K>): Literal {
  const render = intentKind(kind).render;
  return render ? render(intent) : toLiteral(intent as object);
}
