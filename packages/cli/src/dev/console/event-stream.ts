import type { FastifyInstance } from 'fastify';

/** One thing the app did, as the console's Requests tab shows it. */
export type ConsoleEvent =
  | { readonly kind: 'request'; readonly time: string; readonly method: string; readonly path: string; readonly status: number; readonly durationMs: number; readonly requestId: string; readonly functionName?: string }
  | { readonly kind: 'queue' | 'cron' | 'function'; readonly time: string; readonly id: string; readonly functionName: string; readonly ok: boolean; readonly durationMs: number; readonly requestId?: string; readonly error?: string; readonly records?: number };

/** `Omit` for each member of a union. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * An event as it is published: its `time` may still be milliseconds since the epoch, written out as ISO text only
 * when a page reads the event (most are never shown; `toISOString` costs about 1.3 µs per request).
 */
export type PublishedConsoleEvent = OmitEach<ConsoleEvent, 'time'> & { readonly time: string | number };

/** How many past events a page opened late still gets. */
const BACKLOG = 200;

/**
 * The console's live stream: every event is kept in a short backlog and written to each open
 * `GET /_dev/events` (server-sent events), so a page sees what happened before it opened, then everything as it happens.
 */
export class ConsoleEventStream {
  /** The events themselves: written out only when a page reads them (most requests are never shown). */
  private readonly backlog: PublishedConsoleEvent[] = [];
  private readonly listeners = new Set<(frame: string) => void>();

  publish(event: PublishedConsoleEvent): void {
    this.backlog.push(event);
    if (this.backlog.length > BACKLOG) this.backlog.shift();
    if (this.listeners.size === 0) return;
    const frame = frameOf(event);
    for (const listener of this.listeners) listener(frame);
  }

  /** Serves `GET <path>`; open streams end when the server closes (or it would wait for them). */
  serve(server: FastifyInstance, path: string): void {
    const open = new Set<() => void>();
    server.addHook('preClose', (done) => {
      for (const end of open) end();
      done();
    });
    server.get(path, (request, reply) => {
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-request-id': request.id });
      raw.write(`retry: 1000\n\n${this.backlog.map(frameOf).join('')}`);
      const listener = (frame: string) => raw.write(frame);
      const end = () => {
        this.listeners.delete(listener);
        open.delete(end);
        raw.end();
      };
      this.listeners.add(listener);
      open.add(end);
      request.raw.on('close', end);
    });
  }
}

/** One server-sent event. */
function frameOf(event: PublishedConsoleEvent): string {
  const written: ConsoleEvent = typeof event.time === 'number' ? ({ ...event, time: new Date(event.time).toISOString() } as ConsoleEvent) : (event as ConsoleEvent);
  return `data: ${JSON.stringify(written)}\n\n`;
}
