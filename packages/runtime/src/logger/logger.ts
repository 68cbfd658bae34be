import { LOG_LEVEL_VAR } from '@framework/core/names';
import { currentTenant } from '../context/tenant.js';

/** Log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One structured log entry, as written (one JSON line). */
export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  /** ISO 8601. */
  readonly timestamp: string;
  readonly requestId?: string;
  readonly traceId?: string;
  readonly data?: unknown;
  /** Further bound fields (`logger.child({ ... })`). */
  readonly [field: string]: unknown;
}

export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
  /** A logger that adds `fields` to every line (the runtime binds `requestId` and `traceId` this way). */
  child(fields: Readonly<Record<string, unknown>>): Logger;
  /** Whether a line at `level` would be written (skip building expensive data when not). */
  isEnabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  /**
   * Minimum level written.
   * @default - `LOG_LEVEL` from the environment, else `info`
   */
  readonly level?: LogLevel;
  /**
   * Where lines go (one JSON text per call, without newline).
   * @default - standard output, one line per entry (Lambda ships it to CloudWatch Logs)
   */
  readonly sink?: (line: string) => void;
  /**
   * Fields added to every line.
   * @default - none
   */
  readonly fields?: Readonly<Record<string, unknown>>;
}

function stdoutSink(line: string): void {
  process.stdout.write(line + '\n');
}

/** `LOG_LEVEL` as a level; anything unknown (or unset) is `info`, so a typo never silences errors. */
export function levelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const raw = env[LOG_LEVEL_VAR]?.trim().toLowerCase();
  return raw && /^(debug|info|warn|error)$/.test(raw) ? (raw as LogLevel) : raw === 'warning' ? 'warn' : 'info';
}

/**
 * Errors do not survive `JSON.stringify` (their fields are not enumerable), so they are turned into
 * `{ name, message, stack, code?, cause? }` wherever they appear in the data (top level or one object level down,
 * which covers `logger.error('failed', { error })` and `logger.error('failed', error)`).
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const out: Record<string, unknown> = { name: error.name, message: error.message, stack: error.stack };
  const extra = error as Error & { code?: unknown; cause?: unknown };
  if (extra.code !== undefined) out['code'] = extra.code;
  if (extra.cause !== undefined && depth < 3) out['cause'] = serializeError(extra.cause, depth + 1);
  return out;
}

function serializeData(data: unknown): unknown {
  if (data instanceof Error) return serializeError(data);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(data)) {
    if (value instanceof Error) {
      copy ??= { ...(data as Record<string, unknown>) };
      copy[key] = serializeError(value);
    }
  }
  return copy ?? data;
}

function safeStringify(entry: Record<string, unknown>): string {
  try {
    return JSON.stringify(entry, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  } catch {
    // Circular data must not turn a log call into a crash.
    return JSON.stringify({ ...entry, data: '[unserializable]' });
  }
}

class JsonLogger implements Logger {
  // `declare` and assigned below: parameter properties would also be emitted as class fields (ES2022), in every bundle.
  declare private readonly minRank: number;
  declare private readonly sink: (line: string) => void;
  declare private readonly fields: Readonly<Record<string, unknown>>;

  constructor(minRank: number, sink: (line: string) => void, fields: Readonly<Record<string, unknown>>) {
    this.minRank = minRank;
    this.sink = sink;
    this.fields = fields;
  }

  debug(message: string, data?: unknown): void {
    this.write('debug', message, data);
  }
  info(message: string, data?: unknown): void {
    this.write('info', message, data);
  }
  warn(message: string, data?: unknown): void {
    this.write('warn', message, data);
  }
  error(message: string, data?: unknown): void {
    this.write('error', message, data);
  }

  child(fields: Readonly<Record<string, unknown>>): Logger {
    return new JsonLogger(this.minRank, this.sink, { ...this.fields, ...fields });
  }

  isEnabled(level: LogLevel): boolean {
    return LEVEL_RANK[level] >= this.minRank;
  }

  private write(level: LogLevel, message: string, data: unknown): void {
    if (LEVEL_RANK[level] < this.minRank) return;
    const entry: Record<string, unknown> = { level, message, timestamp: new Date().toISOString(), ...this.fields };
    // The tenant dimension: every line written for a tenant says which, so one tenant's lines can be told (and
    // filtered) from another's, whoever wrote them.
    const tenant = currentTenant();
    if (tenant !== undefined && entry['tenant'] === undefined) entry['tenant'] = tenant.id;
    if (data !== undefined) entry['data'] = serializeData(data);
    this.sink(safeStringify(entry));
  }
}

/** A JSON-lines logger. Most code uses `ctx.logger` (already bound to the request) instead. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return new JsonLogger(LEVEL_RANK[options.level ?? levelFromEnv()], options.sink ?? stdoutSink, options.fields ?? {});
}

let rootLogger: Logger | undefined;

/** The process-wide logger (created on first use, reading `LOG_LEVEL` then). */
export function getRootLogger(): Logger {
  return (rootLogger ??= createLogger());
}

/** Replace the process-wide logger (tests capture lines this way); `undefined` restores the default. */
export function setRootLogger(logger: Logger | undefined): void {
  rootLogger = logger;
}
