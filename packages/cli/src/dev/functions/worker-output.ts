import type { Readable } from 'node:stream';

/** How deep into a log line's fields error stacks are looked for (`data.error.cause.stack` is four levels down). */
const MAX_DEPTH = 6;

/**
 * A function's JSON log line as the terminal shows it. Lambda ships one JSON line per entry to CloudWatch, where a
 * stack stays one escaped string; in a terminal that is unreadable, so a line that carries stacks is printed without
 * them, each stack following on its own lines, as Node prints an uncaught error. Any other line is left as it is.
 */
export function readableLogLine(line: string): string {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}') || !trimmed.includes('"stack"')) return line;
  let entry: unknown;
  try {
    entry = JSON.parse(trimmed);
  } catch {
    return line;
  }
  const stacks: string[] = [];
  const withoutStacks = stripStacks(entry, stacks, 0);
  if (stacks.length === 0) return line;
  return [JSON.stringify(withoutStacks), ...stacks.map((stack, i) => (i === 0 ? stack : `Caused by: ${stack}`))].join('\n');
}

function stripStacks(value: unknown, stacks: string[], depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => stripStacks(item, stacks, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'stack' && typeof field === 'string' && field.includes('\n')) stacks.push(field);
    else Object.defineProperty(out, key, { value: stripStacks(field, stacks, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Options of `relayWorkerOutput`. */
export interface RelayOptions {
  /** Sees each raw line, shown or not. */
  readonly tap?: (line: string) => void;
  /** Whether the terminal shows a line. @default - every line */
  readonly show?: (line: string) => boolean;
}

/** Copies a function thread's output to the terminal line by line, through `readableLogLine` (the lines `show` keeps). */
export function relayWorkerOutput(source: Readable, target: NodeJS.WritableStream, options: RelayOptions = {}): void {
  const { tap, show } = options;
  const write = (lines: readonly string[]) => {
    const shown = show ? lines.filter((line) => show(line)) : lines;
    if (shown.length) target.write(shown.map(readableLogLine).join('\n') + '\n');
  };
  let pending = '';
  source.setEncoding('utf8');
  source.on('data', (chunk: string) => {
    pending += chunk;
    const end = pending.lastIndexOf('\n');
    if (end === -1) {
      // Output that never ends its line (a progress bar) is not held back for long.
      if (pending.length > 65_536) {
        target.write(pending);
        pending = '';
      }
      return;
    }
    const lines = pending.slice(0, end).split('\n');
    pending = pending.slice(end + 1);
    if (tap) for (const line of lines) tap(line);
    write(lines);
  });
  source.on('end', () => {
    if (pending) {
      tap?.(pending);
      write([pending]);
    }
    pending = '';
  });
}
