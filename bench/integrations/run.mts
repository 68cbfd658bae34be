/**
 * The cost of `@framework/integrations`' HTTP client per request against bare `fetch`, on the same local server in
 * the same run: a GET answering a small JSON body, read and parsed by both. The client does everything it does in a
 * function (URL and headers, the per-attempt timer, the host's circuit breaker, one structured log line built and
 * serialised; the sink drops it so the terminal does not weigh in). Requests alternate between the two (the order
 * flips every pair) so drift on a shared machine hits both; the figure is the ratio of p50 latencies (goal: <= 1.10).
 *
 * Run: npx projen bench:integrations
 */
import { createLogger } from '@framework/runtime';
import { createHttpClient } from '@framework/integrations';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const WARMUP = 500;
const PAIRS = Number(process.env['BENCH_PAIRS'] ?? 5000);
const PAYLOAD = JSON.stringify({ id: 42, name: 'widget', tags: ['a', 'b', 'c'], price: 12.5 });

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function main(): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(PAYLOAD) });
    res.end(PAYLOAD);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items/42`;
  let lines = 0;
  const client = createHttpClient({ logger: createLogger({ level: 'info', sink: () => void lines++ }) });

  const bare = async (): Promise<unknown> => {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`bare fetch answered ${res.status}`);
    return res.json();
  };
  const viaClient = async (): Promise<unknown> => (await client.get(url)).body;

  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    const start = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };

  for (let i = 0; i < WARMUP; i++) {
    await bare();
    await viaClient();
  }
  const bareMs: number[] = [];
  const clientMs: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    if (i % 2 === 0) {
      bareMs.push(await time(bare));
      clientMs.push(await time(viaClient));
    } else {
      clientMs.push(await time(viaClient));
      bareMs.push(await time(bare));
    }
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));

  const row = (name: string, values: number[]) => `${name.padEnd(14)} p50 ${percentile(values, 50).toFixed(3)} ms   p90 ${percentile(values, 90).toFixed(3)} ms   p99 ${percentile(values, 99).toFixed(3)} ms`;
  const ratio = percentile(clientMs, 50) / percentile(bareMs, 50);
  console.log(`HTTP client overhead: ${PAIRS} GETs each, alternating, local server (Node ${process.version})`);
  console.log(row('bare fetch', bareMs));
  console.log(row('createHttpClient', clientMs));
  console.log(`p50 ratio client / bare: ${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)}%; goal <= +10%)   log lines built: ${lines}`);
  if (ratio > 1.1) process.exitCode = 1;
}

await main();
