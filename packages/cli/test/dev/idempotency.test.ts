import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { DevServer } from '../../src/dev/dev-server.js';
import { eventually, json, REPO, token } from './helpers.js';

/**
 * `fw dev` keeps idempotency records in the dev server, shared by every instance of a function and persisted under
 * `.fw/`: a retry after the function's worker was replaced (an edit, a crash) or after a restart of `fw dev` replays
 * the stored response instead of running the handler a second time.
 */
const ORDERS_ROUTE = (version: string, runsFile: string) => `import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createDefaultIdempotencyStore, handler, idempotencyMiddleware } from '@framework/runtime';

export const main = handler(
  async (body: { sku: string; crash?: boolean }, ctx) => {
    if (body.crash) process.exit(1);
    appendFileSync(${JSON.stringify(runsFile)}, body.sku + '\\n');
    return { orderId: randomUUID(), sku: body.sku, for: ctx.auth.subject, version: '${version}' };
  },
  { scopes: ['orders:write'], middleware: [idempotencyMiddleware({ store: createDefaultIdempotencyStore() })] },
);
`;

/** A queue consumer that charges each order once (`makeIdempotent` keyed by the order id), logging every delivery. */
const ORDERS_CONSUMER = (version: string, runsFile: string, seenFile: string) => `import { appendFileSync } from 'node:fs';
import { createDefaultIdempotencyStore, makeIdempotent, processRecords, taskHandler, type SQSEvent } from '@framework/runtime';

const chargeOnce = makeIdempotent(async (order: { orderId: string }) => {
  appendFileSync(${JSON.stringify(runsFile)}, 'charge ' + order.orderId + '\\n');
  return { charged: order.orderId, version: '${version}' };
}, { store: createDefaultIdempotencyStore(), scope: 'charges', key: (order) => order.orderId });

export const main = taskHandler<SQSEvent>(async (event) =>
  processRecords<{ orderId: string }>(event, async (order) => {
    const result = await chargeOnce(order);
    appendFileSync(${JSON.stringify(seenFile)}, JSON.stringify(result) + '\\n');
  }),
);
`;

/** A small app: one idempotent route and a queue whose consumer is idempotent. */
function project(): { dir: string; runsFile: string; routeFile: string; seenFile: string; consumerFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-idempotency-'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const runsFile = path.join(dir, 'runs.log');
  const seenFile = path.join(dir, 'seen.log');
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'idempotency-app', private: true, type: 'module' }),
    'fw.config.ts': `import { defineApp } from '@framework/core';
export default defineApp({
  base: { name: 'idempotency-app', region: 'eu-west-1' },
  security: { scopes: { 'orders:write': 'Place orders' }, appClients: { web: { scopes: ['orders:write'], flows: ['authorization_code'], callbackUrls: ['http://localhost:5173/callback'] } } },
  envs: { dev: { preset: 'free', overrides: { functions: { timeout: 3 } } } },
  routesDir: 'src/routes',
  infrastructure: { queues: [{ id: 'charges', batchSize: 1, timeout: 3, visibilityTimeout: 3, maxReceiveCount: 3 }] },
});
`,
    'src/routes/orders/post.ts': ORDERS_ROUTE('v1', runsFile),
    'src/queues/charges.ts': ORDERS_CONSUMER('v1', runsFile, seenFile),
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return { dir, runsFile, seenFile, routeFile: path.join(dir, 'src/routes/orders/post.ts'), consumerFile: path.join(dir, 'src/queues/charges.ts') };
}

describe('fw dev: idempotency records live in the dev server and survive worker replacement and restarts', function () {
  this.timeout(90_000);
  let app: ReturnType<typeof project>;
  let server: DevServer | undefined;
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const start = async () => (server = await DevServer.start({ rootDir: app.dir, port: 0, log: quiet, print: () => undefined }));

  beforeEach(() => {
    app = project();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    fs.rmSync(app.dir, { recursive: true, force: true });
  });

  const order = (url: string, bearer: string, body: unknown, key?: string) =>
    fetch(`${url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
  const runs = () => (fs.existsSync(app.runsFile) ? fs.readFileSync(app.runsFile, 'utf8').split('\n').filter(Boolean) : []);

  it('replays after an edit replaced the worker, after a crash replaced it, and after fw dev stopped and started again', async () => {
    // Given a first order placed with key k-1
    const dev = await start();
    const alice = await token(dev.url, ['orders:write'], 'user-alice');
    const first = await order(dev.url, alice, { sku: 'first' }, 'k-1');
    expect(first.status).to.equal(201);
    const placed = await json(first);
    expect(runs()).to.deep.equal(['first']);

    // When the route file is edited (its worker is replaced by one running the new code)
    fs.writeFileSync(app.routeFile, ORDERS_ROUTE('v2', app.runsFile));
    await eventually(async () => {
      const probe = await order(dev.url, alice, { sku: 'probe' });
      return (await json(probe)).version === 'v2' ? true : undefined;
    }, 30_000, 'the edited route');
    // Then the retry of k-1 replays the first answer; the handler does not run again
    const afterEdit = await order(dev.url, alice, { sku: 'first' }, 'k-1');
    expect(afterEdit.status).to.equal(201);
    expect(afterEdit.headers.get('idempotency-replayed')).to.equal('true');
    expect(await json(afterEdit)).to.deep.equal(placed);

    // When the function's worker crashes (process.exit) and is replaced
    const crashed = await order(dev.url, alice, { sku: 'x', crash: true });
    expect(crashed.status).to.equal(500);
    // Then the retry still replays
    const afterCrash = await order(dev.url, alice, { sku: 'first' }, 'k-1');
    expect(afterCrash.headers.get('idempotency-replayed')).to.equal('true');
    expect(await json(afterCrash)).to.deep.equal(placed);

    // When fw dev stops and starts again on the same folder
    await server!.stop();
    server = undefined;
    const again = await start();
    const aliceAgain = await token(again.url, ['orders:write'], 'user-alice');
    // Then the retry replays from the records kept under .fw/
    const afterRestart = await order(again.url, aliceAgain, { sku: 'first' }, 'k-1');
    expect(afterRestart.status).to.equal(201);
    expect(afterRestart.headers.get('idempotency-replayed')).to.equal('true');
    expect(await json(afterRestart)).to.deep.equal(placed);
    expect(runs().filter((sku) => sku === 'first')).to.deep.equal(['first']);
  });

  it("keeps each caller's records apart in the shared store: another user's retry with the same key runs their own order", async () => {
    const dev = await start();
    const alice = await token(dev.url, ['orders:write'], 'user-alice');
    const bob = await token(dev.url, ['orders:write'], 'user-bob');
    const forAlice = await json(await order(dev.url, alice, { sku: 'same' }, 'k-2'));
    const forBobResponse = await order(dev.url, bob, { sku: 'same' }, 'k-2');
    const forBob = await json(forBobResponse);
    expect(forBobResponse.headers.get('idempotency-replayed')).to.equal(null);
    expect(forBob.for).to.equal('user-bob');
    expect(forBob.orderId).to.not.equal(forAlice.orderId);
    const aliceRetry = await order(dev.url, alice, { sku: 'same' }, 'k-2');
    expect(aliceRetry.headers.get('idempotency-replayed')).to.equal('true');
    expect(await json(aliceRetry)).to.deep.equal(forAlice);
    expect(runs()).to.deep.equal(['same', 'same']);
  });

  it('a queue consumer made idempotent with makeIdempotent charges a redelivered order once, across an edit of the consumer', async () => {
    const dev = await start();
    const send = (orderId: string) =>
      fetch(`${dev.url}/_dev/queues/charges/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: JSON.stringify({ orderId }) }) });
    const seen = () => (fs.existsSync(app.seenFile) ? fs.readFileSync(app.seenFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);
    // Given order o-1 delivered and charged once
    expect((await send('o-1')).status).to.equal(202);
    await eventually(async () => (seen().length === 1 ? true : undefined), 20_000, 'the first delivery');
    // When the consumer is edited (its worker replaced) and the same order is delivered again
    fs.writeFileSync(app.consumerFile, ORDERS_CONSUMER('v2', app.runsFile, app.seenFile));
    await eventually(async () => {
      await send(`probe-${Date.now()}`);
      return seen().some((s) => s.version === 'v2') ? true : undefined;
    }, 30_000, 'the edited consumer');
    expect((await send('o-1')).status).to.equal(202);
    await eventually(async () => (seen().filter((s) => s.charged === 'o-1').length === 2 ? true : undefined), 20_000, 'the second delivery of o-1');
    // Then the second delivery got the stored result; the charge ran once
    expect(seen().filter((s) => s.charged === 'o-1')).to.deep.equal([{ charged: 'o-1', version: 'v1' }, { charged: 'o-1', version: 'v1' }]);
    expect(runs().filter((line) => line === 'charge o-1')).to.deep.equal(['charge o-1']);
  });
});
