import { createLogger, getService, resetService, setRootLogger, type Logger, type StandardSchemaV1 } from '@framework/runtime';
import { expect } from 'chai';
import {
  createHttpClient,
  HttpClientOptionsError,
  UpstreamCircuitOpenError,
  UpstreamError,
  UpstreamRateLimitedError,
  UpstreamResponseInvalidError,
  UpstreamTimeoutError,
  type HttpClientOptions,
} from '../../src/index.js';
import { ScriptedServer } from '../helpers/scripted-server.js';

interface Line {
  readonly level: string;
  readonly message: string;
  readonly requestId?: string;
  readonly data: Record<string, unknown>;
}

function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = createLogger({ level: 'debug', sink: (line) => lines.push(JSON.parse(line) as Line), fields: { requestId: 'req-1' } });
  return { logger, lines };
}

const callLines = (lines: Line[]): Record<string, unknown>[] => lines.filter((line) => line.message === 'http call').map((line) => line.data);

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  expect.fail('expected the call to fail');
}

describe('createHttpClient', () => {
  let server: ScriptedServer;
  before(async () => {
    server = await ScriptedServer.start();
    // Calls made without a logger of their own write to the root logger: keep the test output readable.
    setRootLogger(createLogger({ sink: () => undefined }));
  });
  after(async () => {
    setRootLogger(undefined);
    await server.stop();
  });

  // Small delays keep the suite quick; the random source is fixed where a figure is checked.
  const client = (options: HttpClientOptions = {}) => createHttpClient({ baseUrl: server.url, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });

  describe('answers', () => {
    it('parses a JSON body and answers status, ok, headers and attempts; one log line per attempt with the request id', async () => {
      server.script({ status: 200, body: { id: 7 }, headers: { 'x-request-id': 'up-1' } });
      const { logger, lines } = capture();
      const res = await client({ logger }).get<{ id: number }>('/things/7', { query: { expand: ['a', 'b'], skip: undefined } });
      expect(res).to.include({ status: 200, ok: true, attempts: 1 });
      expect(res.body).to.deep.equal({ id: 7 });
      expect(res.headers.get('x-request-id')).to.equal('up-1');
      expect(server.seen[0]!.url).to.equal('/things/7?expand=a&expand=b');
      const [line] = callLines(lines);
      expect(line).to.include({ method: 'GET', host: new URL(server.url).host, path: '/things/7?expand=a&expand=b', status: 200, attempt: 1, upstreamRequestId: 'up-1' });
      expect(line!['durationMs']).to.be.a('number');
      expect(lines.find((l) => l.message === 'http call')!.requestId).to.equal('req-1');
    });

    it('answers text as text and an empty body as undefined', async () => {
      server.script({ status: 200, body: 'plain' });
      expect((await client().get('/t')).body).to.equal('plain');
      server.script({ status: 204 });
      expect((await client().delete('/t')).body).to.equal(undefined);
    });

    it('sends a JSON body with its content type', async () => {
      server.script({ status: 201, body: { ok: true } });
      await client().put('/things/1', { json: { name: 'x' } });
      expect(server.seen[0]!.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(server.seen[0]!.body)).to.deep.equal({ name: 'x' });
    });

    it('throws UpstreamError with the status for a 4xx, without retrying; throwHttpErrors: false answers it', async () => {
      server.script({ status: 404, body: { error: 'nope' } });
      const error = await rejection(client().get('/missing'));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ code: 'FW_ERR_UPSTREAM_ERROR', status: 404 });
      expect((error as UpstreamError).body).to.deep.equal({ error: 'nope' });
      expect(server.seen).to.have.length(1);
      server.script({ status: 404, body: { error: 'nope' } });
      const res = await client().get('/missing', { throwHttpErrors: false });
      expect(res).to.include({ status: 404, ok: false });
    });

    it('refuses a relative URL without baseUrl and a negative timeout, naming the fix', async () => {
      const error = await rejection(createHttpClient().get('/x'));
      expect(error).to.be.instanceOf(HttpClientOptionsError).and.have.property('message').that.matches(/baseUrl/);
      expect(() => createHttpClient({ timeoutMs: -1 })).to.throw(HttpClientOptionsError, /timeoutMs/);
    });
  });

  describe('retries', () => {
    it('retries a GET on 503 until it succeeds, logging each attempt and its wait', async () => {
      server.script({ status: 503 }, { status: 503 }, { status: 200, body: { done: true } });
      const { logger, lines } = capture();
      const res = await client({ logger }).get('/flaky');
      expect(res).to.include({ status: 200, attempts: 3 });
      expect(server.seen).to.have.length(3);
      const attempts = callLines(lines);
      expect(attempts.map((l) => [l['attempt'], l['status']])).to.deep.equal([[1, 503], [2, 503], [3, 200]]);
      expect(attempts[0]!['retryInMs']).to.be.a('number');
      expect(attempts[2]!['retryInMs']).to.equal(undefined);
    });

    it('gives up after maxAttempts with UpstreamError and the last status', async () => {
      server.script({ status: 502 });
      const error = await rejection(client({ retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 } }).get('/down'));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 502 });
      expect((error as UpstreamError).call.attempts).to.equal(4);
      expect(server.seen).to.have.length(4);
    });

    it('retries a POST with the same Idempotency-Key on every attempt', async () => {
      server.script({ status: 500 }, { status: 503 }, { status: 201, body: { id: 1 } });
      const res = await client().post('/charges', { json: { amount: 5 } });
      expect(res.status).to.equal(201);
      const keys = server.seen.map((r) => r.headers['idempotency-key']);
      expect(keys).to.have.length(3);
      expect(keys[0]).to.match(/^[0-9a-f-]{36}$/);
      expect(new Set(keys).size).to.equal(1);
      expect(server.seen.every((r) => r.body === '{"amount":5}')).to.equal(true);
    });

    it('does not retry a POST sent without an idempotency key, nor a PATCH without one', async () => {
      server.script({ status: 503 });
      await rejection(client().post('/charges', { json: {}, idempotencyKey: false }));
      expect(server.seen).to.have.length(1);
      expect(server.seen[0]!.headers['idempotency-key']).to.equal(undefined);
      server.script({ status: 503 });
      await rejection(client().patch('/charges/1', { json: {} }));
      expect(server.seen).to.have.length(1);
      server.script({ status: 503 }, { status: 200 });
      await client().patch('/charges/1', { json: {}, idempotencyKey: 'k-1' });
      expect(server.seen.map((r) => r.headers['idempotency-key'])).to.deep.equal(['k-1', 'k-1']);
    });

    it('retries after a dropped connection; a connection that always drops ends in UpstreamError without status', async () => {
      server.script('drop', { status: 200, body: { ok: 1 } });
      expect((await client().get('/d')).attempts).to.equal(2);
      server.script('drop');
      const error = await rejection(client().get('/d'));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: undefined });
      expect((error as UpstreamError).call.attempts).to.equal(3);
      expect(server.seen).to.have.length(3);
    });

    it('full jitter: a draw of 0 waits nothing, a draw near 1 waits just under the capped exponential ceiling', async () => {
      server.script({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 200 });
      const low = capture();
      await client({ logger: low.logger, random: () => 0, retry: { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 25 } }).get('/j');
      expect(callLines(low.lines).slice(0, 4).map((l) => l['retryInMs'])).to.deep.equal([0, 0, 0, 0]);
      server.script({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 200 });
      const high = capture();
      await client({ logger: high.logger, random: () => 0.999, retry: { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 25 } }).get('/j');
      // Ceilings 10, 20, 40 -> 25 (cap), 80 -> 25; a draw of 0.999 floors to one less.
      expect(callLines(high.lines).slice(0, 4).map((l) => l['retryInMs'])).to.deep.equal([9, 19, 24, 24]);
    });

    it('waits at least what Retry-After asks on a 429, then succeeds', async () => {
      server.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 200, body: {} });
      const { logger, lines } = capture();
      const res = await client({ logger, random: () => 0 }).get('/limited');
      expect(res.attempts).to.equal(2);
      expect(callLines(lines)[0]!['retryInMs']).to.equal(1000);
    });

    it('fails at once with UpstreamRateLimitedError when the asked wait does not fit the deadline', async () => {
      server.script({ status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '60' } });
      const error = await rejection(client({ deadlineMs: 2000 }).get('/limited'));
      expect(error).to.be.instanceOf(UpstreamRateLimitedError).and.include({ code: 'FW_ERR_UPSTREAM_RATE_LIMITED', retryAfterMs: 60_000 });
      expect(server.seen).to.have.length(1);
    });
  });

  describe('timeouts and deadline', () => {
    it('times out each attempt and retries, then throws UpstreamTimeoutError (attempt)', async () => {
      server.script('hang');
      const error = await rejection(client({ timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }).get('/slow'));
      expect(error).to.be.instanceOf(UpstreamTimeoutError).and.include({ code: 'FW_ERR_UPSTREAM_TIMEOUT', reason: 'attempt' });
      expect(server.seen).to.have.length(2);
    });

    it('never runs past the invocation: the remaining time (minus the margin) caps a long timeout', async () => {
      server.script('hang');
      const context = { getRemainingTimeInMillis: () => 400 };
      const http = client({ timeoutMs: 120_000, deadlineMs: 120_000, deadlineMarginMs: 100 }).withContext(context);
      const error = await rejection(http.get('/slow'));
      expect(error).to.be.instanceOf(UpstreamTimeoutError).and.include({ reason: 'deadline' });
      expect(server.seen).to.have.length(1);
    });

    it('an overall deadline stops retries that would outlast it', async () => {
      server.script('hang');
      const error = await rejection(client({ timeoutMs: 150, deadlineMs: 250, retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 1 } }).get('/slow'));
      expect(error).to.be.instanceOf(UpstreamTimeoutError);
      expect(server.seen.length).to.be.within(1, 2);
    });
  });

  describe('circuit breaker', () => {
    it('opens after consecutive failures, refuses without sending, half-opens for one trial call and closes on success', async () => {
      const http = client({ retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 150 } });
      const host = new URL(server.url).host;
      server.script({ status: 503 });
      await rejection(http.get('/b'));
      expect(http.circuitState(host)).to.equal('closed');
      await rejection(http.get('/b'));
      expect(http.circuitState(host)).to.equal('open');
      const refused = await rejection(http.get('/b'));
      expect(refused).to.be.instanceOf(UpstreamCircuitOpenError).and.include({ code: 'FW_ERR_UPSTREAM_CIRCUIT_OPEN' });
      expect(server.seen).to.have.length(2);

      await new Promise((resolve) => setTimeout(resolve, 200));
      server.script({ status: 503 });
      await rejection(http.get('/b')); // the trial call fails: open again
      expect(http.circuitState(host)).to.equal('open');
      expect(await rejection(http.get('/b'))).to.be.instanceOf(UpstreamCircuitOpenError);

      await new Promise((resolve) => setTimeout(resolve, 200));
      server.script({ status: 200, body: {} });
      expect((await http.get('/b')).status).to.equal(200);
      expect(http.circuitState(host)).to.equal('closed');
    });

    it('does not count 4xx and 429 answers as failures of the host', async () => {
      const http = client({ retry: false, circuitBreaker: { consecutiveFailures: 1 } });
      server.script({ status: 429 });
      await rejection(http.get('/c'));
      server.script({ status: 400 });
      await rejection(http.get('/c'));
      expect(http.circuitState(new URL(server.url).host)).to.equal('closed');
    });
  });

  describe('redaction', () => {
    it('keeps tokens of the query, user info and the Authorization header out of log lines and errors', async () => {
      server.script({ status: 500 });
      const { logger, lines } = capture();
      const url = `${server.url.replace('http://', 'http://alice:pw-secret@')}/cb?access_token=tok-secret&page=2&sig=sig-secret&tenant=t1`;
      const error = await rejection(
        client({ logger, retry: false, redactQueryParams: ['tenant'], redactHeaders: ['X-Partner-Secret'] }).get(url, {
          headers: { authorization: 'Bearer bearer-secret', 'x-partner-secret': 'pv-hidden' },
        }),
      );
      const text = JSON.stringify(lines) + error.message;
      for (const secret of ['tok-secret', 'sig-secret', 'bearer-secret', 'pv-hidden', 'pw-secret', 't1']) expect(text).not.to.include(secret);
      expect(callLines(lines)[0]!['path']).to.equal('/cb?access_token=[REDACTED]&page=2&sig=[REDACTED]&tenant=[REDACTED]');
      expect(server.seen[0]!.url).to.include('access_token=tok-secret');
    });

    it('sends the user info of a URL as Basic authentication, never in the URL', async () => {
      server.script({ status: 200 });
      await client().get(server.url.replace('http://', 'http://alice:p%40ss@') + '/basic');
      expect(server.seen[0]!.headers.authorization).to.equal(`Basic ${Buffer.from('alice:p@ss').toString('base64')}`);
    });
  });

  describe('schema', () => {
    const idSchema: StandardSchemaV1<unknown, { id: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) =>
          typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number'
            ? { value: { id: (value as { id: number }).id } }
            : { issues: [{ message: 'expected a number', path: ['id'] }] },
      },
    };

    it('answers the schema output for a matching body, and UpstreamResponseInvalidError for one that does not match', async () => {
      server.script({ status: 200, body: { id: 3, extra: true } });
      expect((await client().get('/s', { schema: idSchema })).body).to.deep.equal({ id: 3 });
      server.script({ status: 200, body: { id: 'x' } });
      const error = await rejection(client().get('/s', { schema: idSchema }));
      expect(error).to.be.instanceOf(UpstreamResponseInvalidError).and.have.property('message').that.includes('id: expected a number');
    });
  });

  describe('service.http', () => {
    afterEach(() => resetService());

    it('is on the runtime service object once the package is imported, one client per container', async () => {
      const http = getService().http;
      expect(getService().http).to.equal(http);
      server.script({ status: 200, body: { ok: true } });
      expect((await http.withContext({ getRemainingTimeInMillis: () => 10_000 }).get(`${server.url}/svc`)).body).to.deep.equal({ ok: true });
    });
  });
});
