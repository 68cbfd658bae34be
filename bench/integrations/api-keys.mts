/**
 * API key verification per request (`apiKeys.verify`, what a route with `auth: ['apiKey']` calls): with the
 * verification cache, a request costs one HMAC-SHA-256 and a map lookup. Anchor in the same run: that bare HMAC plus
 * Map.get, with no framework around it. 1,000 keys, requests spread uniformly over them plus 1% made-up keys, for
 * longer than one cache TTL; reports p50/p99 of all requests, of cache hits, of misses (each waits for one
 * PostgreSQL read), and of the steady state (after the first TTL, when every key has been seen once), the ratio to
 * the anchor, the cache hit ratio and the database reads (misses plus background refreshes of entries past half
 * their TTL). Target: p99 under 1 ms with the cache.
 *
 * Run: npx projen bench:api-keys   (native PostgreSQL when installed, else PGlite)
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Database } from '@framework/data';
import { createApiKeys } from '@framework/integrations';
import { startNative, startPglite, type BenchServer } from '../data/server.js';

const KEYS = 1_000;
const REQUESTS = 100_000;
const STEADY_FROM = 20_000;
const PEPPER = 'bench-pepper-bench-pepper-bench-pepper-0123456789';

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function us(ns: number): string {
  return `${(ns / 1000).toFixed(1)} µs`;
}

async function main(): Promise<void> {
  const server: BenchServer = (await startNative().catch(() => undefined)) ?? (await startPglite());
  const db = new Database({ connection: { host: '127.0.0.1', port: server.port, database: 'postgres', user: 'postgres', ssl: false, max: 4 } });
  try {
    const migration = readFileSync(new URL('../../packages/integrations/migrations/0001_fw_api_keys.sql', import.meta.url), 'utf8').split('-- down')[0]!;
    const { sql } = await import('@framework/data');
    const withoutComments = migration.split('\n').filter((line) => !line.trim().startsWith('--')).join('\n');
    for (const statement of withoutComments.split(';').map((s) => s.trim()).filter(Boolean)) await db.query(sql.unsafeRaw(statement));

    // A simulated clock: the run covers several cache TTLs (10 s) without waiting for them.
    let clock = Date.now();
    const apiKeys = createApiKeys({ allowedScopes: ['tasks:read'], db: () => db, pepper: PEPPER, kind: 'test', registerVerifier: false, now: () => clock, lastUsedIntervalSeconds: 3600 });
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) keys.push((await apiKeys.issue({ owner: `owner-${i % 50}`, name: `k${i}`, scopes: ['tasks:read'] })).key);
    const unknown = Array.from({ length: 20 }, (_, i) => `sk_test_${'u'.repeat(11)}${i % 10}_${'x'.repeat(43)}`);

    const all = new Float64Array(REQUESTS);
    const hits: number[] = [];
    const misses: number[] = [];
    const steady: number[] = [];
    let previous = apiKeys.cacheStats();
    for (let i = 0; i < REQUESTS; i++) {
      clock += 0.5; // 100,000 requests over 50 s of simulated time: five TTLs
      const key = i % 100 === 99 ? unknown[i % unknown.length]! : keys[Math.floor(Math.random() * KEYS)]!;
      const start = process.hrtime.bigint();
      await apiKeys.verify(key).catch(() => undefined);
      const ns = Number(process.hrtime.bigint() - start);
      all[i] = ns;
      const stats = apiKeys.cacheStats();
      (stats.hits > previous.hits ? hits : misses).push(ns);
      // After the first TTL (10 s of simulated time): every key has been seen, what a long-lived container serves.
      if (i >= STEADY_FROM) steady.push(ns);
      previous = stats;
    }

    // The anchor: HMAC + Map.get on the same keys, nothing else.
    const table = new Map(keys.map((k) => [k.split('_')[2]!, createHmac('sha256', PEPPER).update(k).digest('hex')]));
    const anchor = new Float64Array(REQUESTS);
    let sink = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const key = keys[Math.floor(Math.random() * KEYS)]!;
      const start = process.hrtime.bigint();
      const hash = createHmac('sha256', PEPPER).update(key).digest('hex');
      if (table.get(key.split('_')[2]!) === hash) sink++;
      anchor[i] = Number(process.hrtime.bigint() - start);
    }

    all.sort();
    anchor.sort();
    const hitTimes = Float64Array.from(hits).sort();
    const missTimes = Float64Array.from(misses).sort();
    const steadyTimes = Float64Array.from(steady).sort();
    const stats = apiKeys.cacheStats();
    console.log(`engine: ${server.label}; ${KEYS} keys, ${REQUESTS} requests (1% unknown keys), cache TTL 10 s over 50 s of simulated time`);
    console.log(`verify, all requests: p50 ${us(percentile(all, 0.5))}, p99 ${us(percentile(all, 0.99))} (target p99 < 1000 µs)`);
    console.log(`verify, cache hits: p50 ${us(percentile(hitTimes, 0.5))}, p99 ${us(percentile(hitTimes, 0.99))}`);
    console.log(`verify, cache misses (${misses.length}, each one PostgreSQL read): p50 ${us(percentile(missTimes, 0.5))}, p99 ${us(percentile(missTimes, 0.99))}`);
    console.log(`verify, steady state (requests ${STEADY_FROM + 1}-${REQUESTS}): p50 ${us(percentile(steadyTimes, 0.5))}, p99 ${us(percentile(steadyTimes, 0.99))}`);
    console.log(`anchor (bare HMAC + Map.get): p50 ${us(percentile(anchor, 0.5))}, p99 ${us(percentile(anchor, 0.99))}; verify/anchor at p50 ${(percentile(hitTimes, 0.5) / percentile(anchor, 0.5)).toFixed(2)}x`);
    console.log(`cache hit ratio: ${((100 * stats.hits) / (stats.hits + stats.misses)).toFixed(2)}% (${stats.hits} hits, ${stats.misses} misses); database reads: ${stats.misses + stats.refreshes} (${stats.refreshes} in the background)${sink === REQUESTS ? '' : ' (anchor mismatch!)'}`);
    console.log(`load average (1, 5, 15 min): ${loadavg().map((l) => l.toFixed(2)).join(', ')} on ${availableParallelism()} cores`);
  } finally {
    await db.end();
    await server.stop();
  }
}

await main();
