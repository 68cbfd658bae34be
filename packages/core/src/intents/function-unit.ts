export type UnitKind = 'route' | 'function' | 'queue' | 'cron' | 'ws';

/** What every deployed function has. */
export interface FunctionUnit {
  readonly kind: UnitKind;
  /** Route key for routes (`PUT /tasks/{id}`) and WebSocket routes (`$connect`), id for the others (`reports/daily`, `emails`, `cleanup`). */
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
