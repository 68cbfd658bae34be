import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { APIGatewayProxyEventV2Schema, EventBridgeSchema, SqsSchema } from '@aws-lambda-powertools/parser/schemas';
import { localAppClientId } from '@framework/core';
import { loadAppWithInputs } from '../../src/app-loader/index.js';
import { LocalIssuer } from '../../src/dev/auth/local-issuer.js';
import { EmbeddedScheduler } from '../../src/dev/engines/schedules.js';
import { eventually, json, startDev, type RunningDev } from './helpers.js';
import { smallProject } from './small-project.js';

/**
 * Every kind of event `fw dev` gives a function, and its tokens, against AWS's documented samples
 * (`test/fixtures/aws-samples/`, sources in its README) and Powertools' schemas of AWS's events: the same keys,
 * recursively, and the same value types, so a handler that reads a field locally finds it deployed.
 */
const SAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'aws-samples');
const sample = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(SAMPLES, file), 'utf8'));

/** Maps whose keys the caller chooses (headers, claims, ...): compared as "an object of strings", not key by key. */
const OPEN_MAPS = new Set(['headers', 'queryStringParameters', 'pathParameters', 'stageVariables', 'requestContext.authorizer.jwt.claims', 'Records[].messageAttributes']);

/** `path: type` for every value, recursively (array items as `[]`); open maps as `map of <type>`. */
function shapeOf(value: unknown, at = ''): string[] {
  if (OPEN_MAPS.has(at)) return [`${at}: map of ${[...new Set(Object.values(value as object).map((v) => typeof v))].join('|') || 'string'}`];
  if (Array.isArray(value)) return [`${at}: array`, ...[...new Set(value.flatMap((v) => shapeOf(v, `${at}[]`)))]];
  if (value !== null && typeof value === 'object') {
    return [`${at || '.'}: object`, ...Object.entries(value).flatMap(([k, v]) => shapeOf(v, at ? `${at}.${k}` : k))];
  }
  return [`${at}: ${value === null ? 'null' : typeof value}`];
}

const CAPTURE = (dir: string, kind: string) => path.join(dir, `captured-${kind}.jsonl`);
const captured = (dir: string, kind: string): unknown[] =>
  fs.existsSync(CAPTURE(dir, kind)) ? fs.readFileSync(CAPTURE(dir, kind), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown) : [];

describe('events and tokens of fw dev against AWS samples and Powertools schemas (small app, real HTTP)', function () {
  this.timeout(60_000);
  let dir: string;
  let dev: RunningDev;

  before(async () => {
    dir = smallProject(
      {
        'src/routes/items/[id]/post.ts':
          "export const main = Object.assign(async (event) => ({ event, env: Object.fromEntries(['AWS_LAMBDA_LOG_GROUP_NAME', 'AWS_LAMBDA_LOG_STREAM_NAME', 'AWS_EXECUTION_ENV', '_HANDLER', 'LAMBDA_TASK_ROOT', 'TZ', 'NODE_OPTIONS', 'FW_IDEMPOTENCY_TABLE', 'FW_AUTH_AUDIENCE', 'FW_AUTH_RESOURCE_SERVER'].map((n) => [n, process.env[n]])) }), { handlerInfo: { kind: 'http', scopes: ['items:read'], middleware: [] } });\n",
      },
      "{ auth: {}, queues: [{ id: 'jobs' }], schedules: [{ id: 'tick', schedule: { cron: '0 7 * * ? *' } }] }",
    );
    // The consumer and the cron write each event they get to a file of the project.
    for (const [file, kind, result] of [['src/queues/jobs.ts', 'queue', '{ batchItemFailures: [] }'], ['src/crons/tick.ts', 'cron', '{ ok: true }']] as const) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), `import * as fs from 'node:fs';\nexport const main = async (event) => { fs.appendFileSync(${JSON.stringify(CAPTURE(dir, kind))}, JSON.stringify(event) + '\\n'); return ${result}; };\n`);
    }
    dev = await startDev(dir);
  });

  after(async () => {
    await dev?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const mint = async (body: Record<string, unknown>) => json(await fetch(`${dev.url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));

  it('gives a route the HTTP API 2.0 event: path parameter, query, cookies, binary body and a Cognito-shaped token', async () => {
    const minted = await mint({ scopes: ['items:read'], sub: 'user-1', groups: ['admin'] });
    const response = await fetch(`${dev.url}/items/abc?parameter1=value1&parameter1=value2&parameter2=value`, {
      method: 'POST',
      headers: { 'authorization': `Bearer ${minted.access_token}`, 'content-type': 'application/octet-stream', 'cookie': 'cookie1=a; cookie2=b' },
      body: Buffer.from([0, 1, 2, 255]),
    });
    expect(response.status).to.equal(200);
    const { event, env } = await json(response);

    expect(APIGatewayProxyEventV2Schema.safeParse(event).error).to.equal(undefined);
    const aws = sample('http-api-v2-jwt.json') as Record<string, unknown>;
    // stageVariables: the gateway leaves it out when the stage has none (a stage of ours never has).
    const { stageVariables: _none, ...expected } = aws;
    expect(shapeOf(event).sort()).to.deep.equal(shapeOf(expected).sort());
    expect(Object.keys(event.headers)).to.include.members(Object.keys(aws.headers as object));
    expect(event.headers).to.include({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http', 'x-forwarded-port': new URL(dev.url).port, 'content-length': '4' });
    expect(event.headers['x-amzn-trace-id']).to.match(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
    expect(event.requestContext.http.path).to.equal('/items/abc');
    expect(event).to.deep.include({ isBase64Encoded: true, body: Buffer.from([0, 1, 2, 255]).toString('base64'), cookies: ['cookie1=a', 'cookie2=b'], pathParameters: { id: 'abc' } });

    // The claims as the JWT authorizer passes them, those of a Cognito access token of a user in a group.
    const claims = event.requestContext.authorizer.jwt.claims as Record<string, string>;
    expect(Object.keys(claims).sort()).to.deep.equal(Object.keys(sample('cognito-access-token-user.json') as object).sort());
    expect(claims).to.include({ 'token_use': 'access', 'scope': 'small/items:read', 'cognito:groups': '[admin]', 'client_id': localAppClientId('small', 'dev', 'local'), 'sub': 'user-1', 'username': 'user-1' });
    expect(shapeOf(decodeJwt(minted.access_token)).sort()).to.deep.equal(shapeOf(sample('cognito-access-token-user.json')).sort());

    // Lambda's own variables, with the deployed values.
    expect(env).to.deep.include({ AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/small-dev-route-post-items-id', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', _HANDLER: 'index.main', TZ: ':UTC', NODE_OPTIONS: '--enable-source-maps', FW_IDEMPOTENCY_TABLE: 'small-dev-idempotency', FW_AUTH_AUDIENCE: localAppClientId('small', 'dev', 'local'), FW_AUTH_RESOURCE_SERVER: 'small' });
    expect(env.AWS_LAMBDA_LOG_STREAM_NAME).to.match(/^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
    expect(fs.existsSync(env.LAMBDA_TASK_ROOT), 'LAMBDA_TASK_ROOT is a folder').to.equal(true);
  });

  it('answers for the gateway itself as the HTTP API does, with the reason in a dev-only header', async () => {
    const cases: [RequestInit & { path: string }, number, string, string][] = [
      [{ path: '/items/abc', method: 'POST' }, 401, 'Unauthorized', 'needs a bearer token'],
      [{ path: '/items/abc', method: 'POST', headers: { authorization: 'Bearer not-a-jwt' } }, 401, 'Unauthorized', 'malformed'],
      [{ path: '/no/such/route' }, 404, 'Not Found', 'no route GET /no/such/route'],
      [{ path: '/items/abc', method: 'PROPFIND' }, 404, 'Not Found', 'no route PROPFIND /items/abc'],
    ];
    for (const [{ path: route, ...init }, status, message, reason] of cases) {
      const response = await fetch(`${dev.url}${route}`, init);
      expect(response.status, route).to.equal(status);
      expect(await json(response), route).to.deep.equal({ message });
      expect(response.headers.get('x-fw-dev-reason'), route).to.contain(reason);
    }
    // A route's own answer (here a runtime refusal would be) keeps the framework body: /_dev paths too.
    const dev404 = await fetch(`${dev.url}/_dev/nothing`);
    expect((await json(dev404)).error.code).to.equal('NOT_FOUND');
  });

  it('gives a queue consumer the SQS event from both dev paths (/_dev/invoke/queue and the queue engine)', async () => {
    expect((await fetch(`${dev.url}/_dev/invoke/queue/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' })).status).to.equal(200);
    expect((await fetch(`${dev.url}/_dev/queues/jobs/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: '{"n":2}' }) })).status).to.equal(202);
    const events = await eventually(async () => (captured(dir, 'queue').length >= 2 ? captured(dir, 'queue') : undefined), 20_000, 'two queue deliveries');
    for (const event of events) {
      expect(SqsSchema.safeParse(event).error).to.equal(undefined);
      expect(shapeOf(event).sort()).to.deep.equal(shapeOf(sample('sqs-event.json')).sort());
    }
  });

  it('gives a cron the EventBridge Scheduler event from /_dev/invoke/cron and from the scheduler engine', async () => {
    expect((await fetch(`${dev.url}/_dev/invoke/cron/tick`, { method: 'POST' })).status).to.equal(200);
    const [fromEndpoint] = await eventually(async () => (captured(dir, 'cron').length ? captured(dir, 'cron') : undefined), 20_000, 'the cron run');

    const fromEngine: unknown[] = [];
    const scheduler = new EmbeddedScheduler();
    const { app: loaded } = await loadAppWithInputs(dir, 'dev');
    try {
      await scheduler.start(loaded, {
        rootDir: dir, dataDir: path.join(dir, '.fw-engine-test'), baseUrl: '', host: '127.0.0.1', log: { info: () => {}, warn: () => {}, error: () => {} }, currentApp: () => loaded, freePort: async () => 0,
        invoke: async (_unit, event) => (fromEngine.push(event), { ok: true, value: null }),
      });
      await scheduler.fire(loaded.crons[0]!);
    } finally {
      await scheduler.stop();
    }
    for (const event of [fromEndpoint, fromEngine[0]]) {
      expect(EventBridgeSchema.safeParse(event).error).to.equal(undefined);
      expect(shapeOf(event).sort()).to.deep.equal(shapeOf(sample('scheduler-event.json')).sort());
      expect(event).to.deep.include({ 'source': 'aws.scheduler', 'detail-type': 'Scheduled Event', 'detail': '{}', 'resources': ['arn:aws:scheduler:eu-west-1:000000000000:schedule/default/small-dev-cron-tick'] });
    }
  });

  it('mints Cognito-shaped tokens: a machine token has the client id as sub and no user claims', async () => {
    const issuer = await LocalIssuer.open(path.join(dir, '.fw-issuer-test'), 'http://127.0.0.1:1', ['x']);
    const { token } = await issuer.mint({ scopes: ['small/items:read'], clientId: 'abcdefghijklmnopqrstuvwxyz' });
    const claims = decodeJwt(token);
    expect(shapeOf(claims).sort()).to.deep.equal(shapeOf(sample('cognito-access-token-client-credentials.json')).sort());
    expect(claims).to.include({ sub: 'abcdefghijklmnopqrstuvwxyz', client_id: 'abcdefghijklmnopqrstuvwxyz', token_use: 'access' });
    expect(claims).to.not.have.property('aud');
    expect(claims).to.not.have.property('username');
  });
});
