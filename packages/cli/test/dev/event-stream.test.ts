import { expect } from 'chai';
import Fastify from 'fastify';
import { ConsoleEventStream } from '../../src/dev/console/event-stream.js';

/** The frames a page gets from the stream until `count` events arrived. */
async function frames(url: string, count: number, publishAfterOpen?: () => void): Promise<Record<string, unknown>[]> {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  publishAfterOpen?.();
  const events = () => [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
  while (events().length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return events();
}

describe("the dev console's live stream (GET /_dev/events)", () => {
  it('writes a time published in milliseconds as ISO text, in the backlog and live, and a time given as text unchanged', async () => {
    const stream = new ConsoleEventStream();
    const server = Fastify();
    stream.serve(server, '/_dev/events');
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const at = Date.parse('2026-11-24T10:07:09.040Z');
      stream.publish({ kind: 'request', time: at + 0.6, method: 'GET', path: '/tasks', status: 200, durationMs: 1.5, requestId: 'r-1' });
      stream.publish({ kind: 'cron', time: '2026-11-24T10:07:10.000Z', id: 'nightly', functionName: 'f', ok: true, durationMs: 3 });
      const got = await frames(`${url}/_dev/events`, 3, () =>
        stream.publish({ kind: 'request', time: at + 1000, method: 'POST', path: '/tasks', status: 201, durationMs: 2, requestId: 'r-2', functionName: 'post' }),
      );
      expect(got).to.deep.equal([
        { kind: 'request', time: '2026-11-24T10:07:09.040Z', method: 'GET', path: '/tasks', status: 200, durationMs: 1.5, requestId: 'r-1' },
        { kind: 'cron', time: '2026-11-24T10:07:10.000Z', id: 'nightly', functionName: 'f', ok: true, durationMs: 3 },
        { kind: 'request', time: '2026-11-24T10:07:10.040Z', method: 'POST', path: '/tasks', status: 201, durationMs: 2, requestId: 'r-2', functionName: 'post' },
      ]);
    } finally {
      await server.close();
    }
  });
});
