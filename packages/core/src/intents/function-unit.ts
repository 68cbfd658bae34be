/**
 * The kinds of deployed function, one key each: `route` (the routes folder) and `function` (the functions folder, the
 * migration unit) here; a kind that brings its own units adds its key from its module (`declare module
 * './function-unit.js' { interface UnitKinds { queue: true } }`), so a new handler kind edits no file but its own.
 */
export interface UnitKinds {
  readonly route: true;
  readonly function: true;
}

/** The kind of a deployed function: `route`, `function`, `queue`, `cron`, `ws` (each kind module adds its own). */
export type UnitKind = keyof UnitKinds;

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
