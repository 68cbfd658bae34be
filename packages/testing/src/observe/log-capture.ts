import { Writable } from 'node:stream';
import type { CapturedLog } from '../app/test-app.js';

/** Collects the lines the functions print; the runtime logger's JSON lines are parsed so they can be found by request id. */
export class LogCapture {
  readonly lines: CapturedLog[] = [];

  constructor(private readonly echo: boolean) {}

  stream(name: 'stdout' | 'stderr'): Writable {
    let pending = '';
    return new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        const text = chunk.toString();
        if (this.echo) (name === 'stdout' ? process.stdout : process.stderr).write(text);
        pending += text;
        const end = pending.lastIndexOf('\n');
        if (end !== -1) {
          for (const line of pending.slice(0, end).split('\n')) this.add(name, line);
          pending = pending.slice(end + 1);
        }
        done();
      },
    });
  }

  /** The lines of one request (the `requestId` field the runtime logger writes), or all of them. */
  of(requestId?: string): CapturedLog[] {
    return requestId === undefined ? [...this.lines] : this.lines.filter((l) => l.entry?.requestId === requestId);
  }

  private add(stream: 'stdout' | 'stderr', line: string): void {
    if (line === '') return;
    let entry: Record<string, unknown> | undefined;
    const trimmed = line.trim();
    if (trimmed.startsWith('{')) {
      try {
        entry = JSON.parse(trimmed) as Record<string, unknown>;
      } catch {
        // Not JSON after all: kept as text.
      }
    }
    this.lines.push({ stream, line, ...(entry ? { entry } : {}) });
  }
}
