/**
 * @framework-pro/billing on the local engines, two figures, each against an anchor of the same run:
 *
 * 1. `requireFeature` per request: the same route (tenancy middleware, tenant from a header) without a check (anchor)
 *    vs with `billing.requireFeature('seats', 2)`, invoked in process; p50 and p99 per request over blocks that
 *    alternate so drift on a shared machine hits both. The plan is cached (the steady state); a third line shows a
 *    check with the cache off (`cacheSeconds: 0`: one snapshot read per request) for what a cold entry costs.
 * 2. `billing.track` inside a transaction: a transaction inserting a task (anchor) vs the same transaction plus
 *    `track` of one API call (one more INSERT ... ON CONFLICT DO NOTHING). Median of paired blocks.
 *
 * Run: npx projen bench:billing   (native PostgreSQL when installed, else PGlite)
 */
import { billingMigrationSql, createBilling, definePlans } from '@framework-pro/billing';
import { tenantMiddleware } from '@framework-pro/tenancy';
import { Database, sql } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { createLogger, handler, setRootLogger } from '@framework/runtime';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { startNative, startPglite, type BenchServer } from '../data/server.js';

const ROUNDS = 30;
const PER_BLOCK = 200;
const TRACK_PER_BLOCK = 100;

const plans = definePlans({
  plans: {
    free: { currency: 'usd', features: { seats: 2, api_calls: { included: 1000 } } },
    pro: { currency: 'usd', prices: [{ kind: 'flat', amount: 2900 }], features: { seats: 10, api_calls: { included: 10_000, overage: '0.1' } } },
  },
  defaultPlan: 'free',
});

function event(tenant: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /members',
    rawPath: '/members',
    rawQueryString: '',
    headers: { host: 'api.example.com', 'x-tenant-id': tenant, 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'bench',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'POST', path: '/members', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench',
      routeKey: 'POST /members',
      stage: '$default',
      time: '23/Nov/2026:09:00:00 +0000',
      timeEpoch: 0,
    },
    body: '{"email":"a@example.com"}',
    isBase64Encoded: false,
  };
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] as number;
}

/** Per-call times (µs) of `PER_BLOCK` sequential calls. */
async function timed(fn: () => Promise<unknown>, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return out;
}

async function requireFeatureCost(db: Database): Promise<void> {
  const tenancy = tenantMiddleware({ from: ['header'] });
  const billing = createBilling({ plans, db });
  const uncached = createBilling({ plans, db, cacheSeconds: 0 });
  const route = async () => ({ invited: true });
  const bare = handler(route, { middleware: [tenancy] });
  const checked = handler(route, { middleware: [tenancy, billing.requireFeature('seats', 2)] });
  const cold = handler(route, { middleware: [tenancy, uncached.requireFeature('seats', 2)] });
  const e = event('acme');
  for (const main of [bare, checked, cold]) {
    const r = await main(e);
    if (r.statusCode !== 201) throw new Error(`expected 201, got ${r.statusCode}: ${String(r.body)}`);
  }
  await timed(() => bare(e), PER_BLOCK);
  await timed(() => checked(e), PER_BLOCK);
  const bareTimes: number[] = [];
  const checkedTimes: number[] = [];
  const coldTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const pair = r % 2 === 0 ? [bareTimes, checkedTimes] : [checkedTimes, bareTimes];
    for (const into of pair) into.push(...(await timed(() => (into === bareTimes ? bare(e) : checked(e)), PER_BLOCK)));
    if (r % 3 === 0) coldTimes.push(...(await timed(() => cold(e), PER_BLOCK / 4)));
  }
  const [b50, c50, k50] = [quantile(bareTimes, 0.5), quantile(checkedTimes, 0.5), quantile(coldTimes, 0.5)];
  console.log(
    `requireFeature per request (in process, cached plan): no check ${b50.toFixed(1)} µs p50 / ${quantile(bareTimes, 0.99).toFixed(1)} µs p99 (anchor), ` +
      `with requireFeature ${c50.toFixed(1)} µs p50 / ${quantile(checkedTimes, 0.99).toFixed(1)} µs p99, added ${(c50 - b50).toFixed(1)} µs p50 (goal <= 200 µs)`,
  );
  console.log(`requireFeature with the cache off (one snapshot read per request): ${k50.toFixed(1)} µs p50, added ${(k50 - b50).toFixed(1)} µs p50 over the anchor`);
}

async function trackCost(db: Database): Promise<void> {
  const billing = createBilling({ plans, db });
  let n = 0;
  const bare = () => db.transaction((tx) => tx.query(sql`INSERT INTO bench_tasks (title) VALUES (${`t${n++}`})`));
  const tracked = () =>
    db.transaction(async (tx) => {
      const i = n++;
      await tx.query(sql`INSERT INTO bench_tasks (title) VALUES (${`t${i}`})`);
      await billing.track(tx, { tenant: 'acme', meter: 'api_calls', quantity: 1, idempotencyKey: `req-${i}` });
    });
  const block = async (fn: () => Promise<unknown>) => (await timed(fn, TRACK_PER_BLOCK)).reduce((a, b) => a + b, 0) / TRACK_PER_BLOCK;
  await block(bare);
  await block(tracked);
  const bareTimes: number[] = [];
  const trackTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      bareTimes.push(await block(bare));
      trackTimes.push(await block(tracked));
    } else {
      trackTimes.push(await block(tracked));
      bareTimes.push(await block(bare));
    }
  }
  const a = quantile(bareTimes, 0.5);
  const b = quantile(trackTimes, 0.5);
  const paired = quantile(trackTimes.map((t, i) => t / (bareTimes[i] as number)), 0.5);
  console.log(`track in the transaction: bare insert transaction ${a.toFixed(0)} µs (anchor), with billing.track ${b.toFixed(0)} µs, added ${(b - a).toFixed(0)} µs, ratio ${paired.toFixed(3)} (median of paired blocks)`);
}

async function main(): Promise<void> {
  setRootLogger(createLogger({ sink: () => undefined }));
  const server: BenchServer = (await startNative().catch(() => undefined)) ?? (await startPglite());
  const db = new Database({ connection: { host: '127.0.0.1', port: server.port, database: 'postgres', user: 'postgres', ssl: false }, logger: { warn: () => undefined } });
  try {
    await migrate(db, { migrations: [parseMigration('0001_billing.sql', billingMigrationSql())] });
    await db.query(sql`CREATE TABLE bench_tasks (id serial PRIMARY KEY, title text NOT NULL)`);
    console.log(`server: ${server.label}; ${ROUNDS} rounds x ${PER_BLOCK} requests per side (requireFeature), ${ROUNDS} rounds x ${TRACK_PER_BLOCK} transactions per side (track)`);
    await requireFeatureCost(db);
    await trackCost(db);
  } finally {
    await db.end();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
