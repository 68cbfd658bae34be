/**
 * Idempotency benchmark: @framework/runtime's idempotency middleware against @aws-lambda-powertools/idempotency,
 * both on the same DynamoDB Local in the same run (Java needed). For a first request (new key) and a replay
 * (completed key) it prints the DynamoDB requests per HTTP request (an SDK middleware counts every `send`) and the
 * median latency, each as a ratio framework / Powertools (the anchor). Goal: ratios <= 1.
 *
 *   npx projen bench:idempotency            (BENCH_ROUNDS=300 for more rounds)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { createDynamoDBIdempotencyStore, handler, idempotencyMiddleware } from '@framework/runtime';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
// The launcher the runtime tests use (no test-runner hooks in this module).
import { localClientConfig, startDynamoDBLocal } from '../../packages/runtime/test/support/dynamodb-local-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);
const WARMUP = 20;

async function main(): Promise<void> {
  const dynamo = await startDynamoDBLocal();
  try {
    const config = localClientConfig(dynamo.endpoint);
    const admin = new DynamoDBClient(config);
    await createTable(admin, 'fw-idempotency', 'pk');
    await createTable(admin, 'powertools-idempotency', 'id');
    admin.destroy();

    // One client per library, each counting the commands it sends.
    const fwClient = new DynamoDBClient(config);
    const ptClient = new DynamoDBClient(config);
    const counts = { fw: 0, pt: 0 };
    fwClient.middlewareStack.add((next) => async (args) => (counts.fw++, next(args)), { step: 'initialize', name: 'countSends' });
    ptClient.middlewareStack.add((next) => async (args) => (counts.pt++, next(args)), { step: 'initialize', name: 'countSends' });

    // The same route both ways: POST /orders, key from the Idempotency-Key header, body checked on reuse.
    const fwStore = await createDynamoDBIdempotencyStore({ tableName: 'fw-idempotency', client: fwClient });
    const fwMain = handler(async (body: unknown) => ({ orderId: 'o-1', received: body }), {
      middleware: [idempotencyMiddleware({ store: fwStore })],
    });
    const ptMain = makeIdempotent(
      async (event: APIGatewayProxyEventV2, _context: Context) => ({
        statusCode: 201,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'o-1', received: JSON.parse(event.body ?? 'null') }),
      }),
      {
        persistenceStore: new DynamoDBPersistenceLayer({ tableName: 'powertools-idempotency', awsSdkV3Client: ptClient }),
        config: new IdempotencyConfig({ eventKeyJmesPath: 'headers."idempotency-key"', payloadValidationJmesPath: 'body' }),
      },
    );
    const runs = {
      fw: (event: APIGatewayProxyEventV2) => fwMain(event, lambdaContext()),
      pt: (event: APIGatewayProxyEventV2) => ptMain(event, lambdaContext()),
    };

    const samples = { fw: { first: [] as number[], replay: [] as number[] }, pt: { first: [] as number[], replay: [] as number[] } };
    const requests = { fw: { first: 0, replay: 0 }, pt: { first: 0, replay: 0 } };
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      // Alternate which library goes first so drift and warm caches favour neither.
      const order: Array<'fw' | 'pt'> = round % 2 === 0 ? ['fw', 'pt'] : ['pt', 'fw'];
      for (const lib of order) {
        const event = orderEvent(`${lib}-key-${round}`);
        const before = counts[lib];
        let t = performance.now();
        const first = await runs[lib](event);
        const firstMs = performance.now() - t;
        const afterFirst = counts[lib];
        t = performance.now();
        const replay = await runs[lib](event);
        const replayMs = performance.now() - t;
        if (first.statusCode !== 201 || replay.statusCode !== 201 || replay.body !== first.body) {
          throw new Error(`${lib}: unexpected answers ${first.statusCode} / ${replay.statusCode}`);
        }
        if (round < WARMUP) continue;
        samples[lib].first.push(firstMs);
        samples[lib].replay.push(replayMs);
        requests[lib].first += afterFirst - before;
        requests[lib].replay += counts[lib] - afterFirst;
      }
    }
    fwClient.destroy();
    ptClient.destroy();

    const line = (label: string, fw: number, pt: number, unit: string) =>
      console.log(`${label}: framework ${fw.toFixed(unit === 'ms' ? 3 : 2)} ${unit}, powertools ${pt.toFixed(unit === 'ms' ? 3 : 2)} ${unit}, ratio ${(fw / pt).toFixed(2)}`);
    console.log(`idempotency on DynamoDB Local, ${ROUNDS} rounds (after ${WARMUP} warm-up), anchor = Powertools ${powertoolsVersion()}`);
    line('first request, DynamoDB requests', requests.fw.first / ROUNDS, requests.pt.first / ROUNDS, 'req');
    line('replay, DynamoDB requests', requests.fw.replay / ROUNDS, requests.pt.replay / ROUNDS, 'req');
    line('first request, median latency', median(samples.fw.first), median(samples.pt.first), 'ms');
    line('replay, median latency', median(samples.fw.replay), median(samples.pt.replay), 'ms');
  } finally {
    dynamo.stop();
  }
}

function orderEvent(key: string): APIGatewayProxyEventV2 {
  const body = JSON.stringify({ sku: 'sku-1', quantity: 2 });
  return {
    version: '2.0',
    routeKey: 'POST /orders',
    rawPath: '/orders',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, 'content-length': String(body.length) },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'POST', path: '/orders', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: `req-${key}`,
      routeKey: 'POST /orders',
      stage: '$default',
      time: '21/Nov/2026:10:00:00 +0000',
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

function lambdaContext(): Context {
  const deadline = Date.now() + 30_000;
  const fail = (): never => {
    throw new Error('not supported');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'bench-dev-route-post-orders',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:bench-dev-route-post-orders',
    memoryLimitInMB: '1024',
    awsRequestId: `r-${Math.random().toString(36).slice(2)}`,
    logGroupName: 'bench',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: fail,
    fail,
    succeed: fail,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function powertoolsVersion(): string {
  // The package exports no ./package.json: find it from the resolved entry point.
  const entry = createRequire(import.meta.url).resolve('@aws-lambda-powertools/idempotency');
  const marker = join('@aws-lambda-powertools', 'idempotency');
  const root = entry.slice(0, entry.indexOf(marker) + marker.length);
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

async function createTable(client: DynamoDBClient, name: string, key: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
}

await main();
