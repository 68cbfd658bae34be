import type { OutputIntent, OutputName } from './outputs.js';

export type UnitKind = 'route' | 'function' | 'queue' | 'cron';

/** What every deployed function has. */
export interface FunctionUnit {
  readonly kind: UnitKind;
  /** Route key for routes (`PUT /tasks/{id}`), id for the others (`reports/daily`, `emails`, `cleanup`). */
  readonly id: string;
  /** Project-relative handler file, `/`-separated. */
  readonly file: string;
  readonly functionName: string;
  /** MB. */
  readonly memorySize: number;
  /** Seconds. */
  readonly timeout: number;
  /** Variables for this function only, on top of the app's `environment`. */
  readonly environment: Readonly<Record<string, string>>;
}

/** The output-reference shape of one kind. */
type OutputValue<K extends OutputIntent> = { readonly kind: 'output'; readonly intent: K; readonly id: string; readonly output: OutputName<K> };

/**
 * A variable's value: fixed text, or an output of an intent (`{ intent: 'databases', id: 'main', output: 'host' }`)
 * that the dev server fills with its local engine's value and the CDK constructs with the resource's attribute.
 */
export type EnvValue = { readonly kind: 'static'; readonly value: string } | { [K in OutputIntent]: OutputValue<K> }[OutputIntent];
