import { createLogger, handler, setRootLogger } from '@framework/runtime';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createQuotas, defineTiers, redisRateStore, tenantMiddleware, type Quotas } from '../../src/index.js';
import { httpEvent, userClaims } from '../support/events.js';
import { startRedisServer, type RunningRedis } from '../support/redis-server.js';

const tiers = defineTiers({ free: { requestsPerMinute: 3 }, pro: { requestsPerMinute: 5 } });

function route(quotas: Quotas) {
  return handler(async (_body, ctx) => ({ tenant: ctx.tenant?.id }), { middleware: [tenantMiddleware(), quotas.middleware()] });
}

async function statuses(main: ReturnType<typeof route>, tenant: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await main(httpEvent({ claims: userClaims(tenant) }))).statusCode);
  return out;
}

describe('request rates counted in a real redis-server (redisRateStore with an ioredis client)', function () {
  let redis: RunningRedis | undefined;
  const clients: Redis[] = [];
  const logged: string[] = [];
  const client = (options?: { readonly enableOfflineQueue?: boolean }) => {
    const made = redis!.client(options);
    clients.push(made);
    return made;
  };

  before(async function () {
    const started = await startRedisServer();
    if (typeof started === 'string') {
      console.warn(`  skipped: ${started}`);
      this.skip();
    }
    redis = started as RunningRedis;
  });
  beforeEach(() => {
    logged.length = 0;
    setRootLogger(createLogger({ sink: (line) => void logged.push(line) }));
  });
  afterEach(async () => {
    setRootLogger(undefined);
    await Promise.all(clients.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
  });
  after(async () => {
    await redis?.stop();
  });

  it('answers 429 at the tier limit, one counter per tenant, shared by every process using the server', async () => {
    // Two containers of the same function: each has its own quotas and its own client, the counter is in Redis.
    const first = route(createQuotas({ tiers, rates: redisRateStore(client()) }));
    const second = route(createQuotas({ tiers, rates: redisRateStore(client()) }));
    expect(await statuses(first, 'acme', 2)).to.deep.equal([200, 200]);
    expect(await statuses(second, 'acme', 2)).to.deep.equal([200, 429]);
    // globex has its own counter
    expect(await statuses(second, 'globex', 4)).to.deep.equal([200, 200, 200, 429]);

    // The counters are Redis keys named by tier and tenant, expiring with the window.
    const keys = (await client().keys('fw-rpm-*')).sort();
    expect(keys).to.deep.equal(['fw-rpm-free:acme', 'fw-rpm-free:globex']);
    const ttl = await clients[0]!.pttl('fw-rpm-free:acme');
    expect(ttl).to.be.within(1, 60_000);
  });

  it('lets requests through, with a warning, when the server cannot be reached (fail open)', async () => {
    const offline = client({ enableOfflineQueue: false });
    const quotas = createQuotas({ tiers, rates: redisRateStore(offline) });
    offline.disconnect();
    expect(await statuses(route(quotas), 'initech', 5)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(logged.some((line) => line.includes('quota counter store failed') && line.includes('initech'))).to.equal(true);
  });
});
