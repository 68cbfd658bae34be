/** How many requests (invocations) are remembered; the oldest is forgotten first. */
const MAX_RECORDS = 500;
/** Log lines kept per request: a handler that logs in a loop must not fill the dev server's memory. */
const MAX_LINES = 200;
/** Characters kept of a log line, an event or a response body. */
const MAX_TEXT = 16_384;

/** One line a handler printed during a request. */
export interface RequestLogLine {
  readonly time: string;
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/** What the console shows for one request id: the function's event, the answer and the handler's log lines. */
export interface RequestRecord {
  readonly requestId: string;
  /** The event the function got (JSON text, cut at 16 KB). */
  event?: string;
  /** The HTTP answer (a route, a dev endpoint) or the invocation's outcome. */
  response?: { readonly status?: number; readonly headers?: Readonly<Record<string, string>>; readonly body: string };
  readonly logs: RequestLogLine[];
  /** Lines left out past the per-request cap. */
  droppedLines: number;
}

/** Characters kept of a body inside an event, so the event's other fields still fit in `MAX_TEXT`. */
const MAX_EVENT_BODY = 4_096;

function cut(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * The dev console's memory of recent requests, by request id, bounded (500 requests, 200 lines each, 16 KB per
 * text). A function's log line is filed under the `requestId` field the framework's logger writes on every JSON line;
 * a line without one (a plain `console.log`) under the request its thread was running last, as Lambda's runtime
 * prefixes such lines with the current request id.
 */
export class RequestRecords {
  private readonly records = new Map<string, RequestRecord>();
  /** Events recorded but not written out yet (`event`); forgotten with their record. */
  private readonly unwritten = new WeakMap<RequestRecord, unknown>();
  /** Answers' headers as the HTTP server held them (`httpAnswer`), written out as text when the record is read. */
  private readonly unwrittenHeaders = new WeakMap<RequestRecord, Readonly<Record<string, unknown>>>();

  private record(requestId: string): RequestRecord {
    let record = this.records.get(requestId);
    if (record) return record;
    record = { requestId, logs: [], droppedLines: 0 };
    this.records.set(requestId, record);
    if (this.records.size > MAX_RECORDS) this.records.delete(this.records.keys().next().value!);
    return record;
  }

  /** A line a function thread printed (`FunctionHostOptions.onLogLine`). */
  line(text: string, stream: 'stdout' | 'stderr', lastRequestId: string | undefined): void {
    if (!text.trim()) return;
    const requestId = requestIdOf(text) ?? lastRequestId;
    if (!requestId) return;
    const record = this.record(requestId);
    if (record.logs.length >= MAX_LINES) {
      record.droppedLines++;
      return;
    }
    record.logs.push({ time: new Date().toISOString(), stream, text: cut(text) });
  }

  /**
   * The event a function got. Kept as it is and written out as text only when the record is read (`get`): most
   * requests are never looked at, and writing each event out cost every request a `JSON.stringify` of its headers.
   * The event must not change afterwards (the dev server builds a new one per request).
   */
  event(requestId: string, event: unknown): void {
    const record = this.record(requestId);
    // Only an HTTP event with a small body waits (its size is bounded by Node's 16 KB of headers); text, a queue's
    // batch or a large body is cut now: the record never holds megabytes.
    const { body, requestContext } = (typeof event === 'object' && event !== null ? event : {}) as { body?: unknown; requestContext?: unknown };
    const small = requestContext !== undefined && (body === undefined || (typeof body === 'string' && body.length <= MAX_EVENT_BODY));
    if (!small) {
      this.unwritten.delete(record);
      this.writeEvent(record, event);
      return;
    }
    record.event = undefined;
    this.unwritten.set(record, event);
  }

  private writeEvent(record: RequestRecord, event: unknown): void {
    let text: string;
    try {
      // A large body is cut before the event is written out: the record never holds megabytes.
      const body = (event as { body?: unknown } | null)?.body;
      const small = typeof body === 'string' && body.length > MAX_EVENT_BODY ? { ...(event as object), body: cut(body, MAX_EVENT_BODY) } : event;
      text = typeof small === 'string' ? small : JSON.stringify(small);
    } catch {
      text = String(event);
    }
    record.event = cut(text);
  }

  response(requestId: string, response: { status?: number; headers?: Readonly<Record<string, string>>; body: string }): void {
    const record = this.record(requestId);
    record.response = { ...response, body: cut(response.body) };
    this.unwrittenHeaders.delete(record);
  }

  /**
   * An HTTP answer, its headers as the server holds them (a value may be a number or a list): kept as they are and
   * written out as text only when the record is read (`get`), as events are.
   */
  httpAnswer(requestId: string, status: number, headers: Readonly<Record<string, unknown>>, body: string): void {
    const record = this.record(requestId);
    record.response = { status, body: cut(body) };
    this.unwrittenHeaders.set(record, headers);
  }

  get(requestId: string): RequestRecord | undefined {
    const record = this.records.get(requestId);
    if (record && this.unwritten.has(record)) {
      this.writeEvent(record, this.unwritten.get(record));
      this.unwritten.delete(record);
    }
    const headers = record && this.unwrittenHeaders.get(record);
    if (record?.response && headers) {
      this.unwrittenHeaders.delete(record);
      record.response = { ...record.response, headers: headerTexts(headers) };
    }
    return record;
  }
}

/** Header values as text: a list joined with `, `, as HTTP folds them; an unset one left out. */
function headerTexts(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) texts[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return texts;
}

/** The `requestId` field of a JSON log line, without parsing lines that cannot carry one. */
function requestIdOf(line: string): string | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.includes('"requestId"')) return undefined;
  try {
    const value = (JSON.parse(trimmed) as { requestId?: unknown }).requestId;
    return typeof value === 'string' && value ? value : undefined;
  } catch {
    return undefined;
  }
}
