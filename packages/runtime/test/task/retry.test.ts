import { expect } from 'chai';
import { backoffDelay, isTransientError, RetryableError, withRetries } from '../../src/index.js';
import { fakeClock } from '../fixtures/fake-clock.js';

describe('transient errors', () => {
  const transient: Array<[string, unknown]> = [
    ['RetryableError', new RetryableError('try again')],
    ['retryable: true', Object.assign(new Error('x'), { retryable: true })],
    ['AWS SDK $retryable', Object.assign(new Error('x'), { $retryable: { throttling: true } })],
    ['ThrottlingException', Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })],
    ['ProvisionedThroughputExceededException', Object.assign(new Error('x'), { name: 'ProvisionedThroughputExceededException' })],
    ['TooManyRequestsException', Object.assign(new Error('x'), { name: 'TooManyRequestsException' })],
    ['TimeoutError', Object.assign(new Error('x'), { name: 'TimeoutError' })],
    ['ETIMEDOUT', Object.assign(new Error('x'), { code: 'ETIMEDOUT' })],
    ['ECONNRESET', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['5xx $metadata', Object.assign(new Error('x'), { name: 'InternalServerError', $metadata: { httpStatusCode: 503 } })],
    ['5xx statusCode', Object.assign(new Error('x'), { statusCode: 502 })],
    ['429 status', Object.assign(new Error('x'), { status: 429 })],
    ['wrapped cause', new Error('wrapped', { cause: Object.assign(new Error('x'), { name: 'ThrottlingException' }) })],
  ];
  for (const [name, error] of transient) it(`treats ${name} as transient`, () => expect(isTransientError(error)).to.equal(true));

  const permanent: Array<[string, unknown]> = [
    ['a plain Error', new Error('bug')],
    ['a 4xx SDK error', Object.assign(new Error('x'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } })],
    ['retryable: false on a 5xx', Object.assign(new Error('x'), { retryable: false, statusCode: 500 })],
    ['a string', 'oops'],
    ['undefined', undefined],
  ];
  for (const [name, error] of permanent) it(`treats ${name} as permanent`, () => expect(isTransientError(error)).to.equal(false));
});

describe('withRetries', () => {
  it('retries transient errors with full-jitter exponential backoff, then succeeds', async () => {
    const clock = fakeClock(0.5);
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 4) throw new RetryableError('flaky');
        return 'done';
      },
      { retries: 3, baseDelayMs: 100, maxDelayMs: 300, clock },
    );
    expect(result).to.equal('done');
    expect(calls).to.equal(4);
    // ceilings 100, 200, 300 (capped); random 0.5 → half of each
    expect(clock.waits).to.deep.equal([50, 100, 150]);
  });

  it('rethrows the last error once the retries are spent', async () => {
    const clock = fakeClock();
    let calls = 0;
    const attempt = withRetries(async () => {
      calls++;
      throw new RetryableError(`attempt ${calls}`);
    }, { retries: 2, clock });
    await attempt.then(
      () => expect.fail('should reject'),
      (error: Error) => expect(error.message).to.equal('attempt 3'),
    );
    expect(clock.waits).to.have.length(2);
  });

  it('does not retry permanent errors', async () => {
    const clock = fakeClock();
    let calls = 0;
    await withRetries(async () => {
      calls++;
      throw new TypeError('bug');
    }, { retries: 5, clock }).catch(() => undefined);
    expect(calls).to.equal(1);
    expect(clock.waits).to.deep.equal([]);
  });

  it('stops retrying when the invocation has too little time left', async () => {
    const clock = fakeClock();
    let calls = 0;
    await withRetries(async () => {
      calls++;
      throw new RetryableError('flaky');
    }, { retries: 5, clock, minRemainingMs: 1000 }, () => 900).catch(() => undefined);
    expect(calls).to.equal(1);
  });

  it('keeps every backoff within [0, ceiling)', () => {
    for (let retry = 0; retry < 10; retry++) {
      expect(backoffDelay(retry, { retries: 10 }, () => 0)).to.equal(0);
      expect(backoffDelay(retry, { retries: 10 }, () => 0.999999)).to.be.below(Math.min(5000, 100 * 2 ** retry));
    }
  });
});
