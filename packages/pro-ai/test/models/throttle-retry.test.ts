import { expect } from 'chai';
import { APICallError } from '@ai-sdk/provider';
import { AiHttpError, createMockModel, createModel, isThrottlingError, mockThrottlingError } from '../../src/index.js';

describe('retries on throttling', () => {
  it('retries a throttled call with growing delays and answers once the provider accepts', async () => {
    const delays: number[] = [];
    const mock = createMockModel({ responses: [{ throw: mockThrottlingError() }, { throw: mockThrottlingError() }, 'finally'] });
    const model = createModel(mock, { retry: { attempts: 4, baseDelayMs: 100, random: () => 0.5, sleep: async (ms) => void delays.push(ms) } });
    const { text } = await model.generate({ prompt: 'hi' });
    expect(text).to.equal('finally');
    expect(mock.calls).to.have.length(3);
    expect(delays).to.have.length(2);
    expect(delays[1]).to.be.greaterThan(delays[0]!);
  });

  it('answers 503 AI_MODEL_THROTTLED with Retry-After when every attempt is throttled', async () => {
    const mock = createMockModel({ script: () => ({ throw: mockThrottlingError() }) });
    const model = createModel(mock, { retry: { attempts: 3, sleep: async () => undefined } });
    const error = await model.generate({ prompt: 'hi' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AiHttpError).and.include({ code: 'AI_MODEL_THROTTLED', status: 503 });
    expect((error as AiHttpError).headers).to.have.property('retry-after');
    expect(mock.calls).to.have.length(3);
  });

  it('does not retry an error that is not throttling', async () => {
    const mock = createMockModel({ responses: [{ throw: new Error('bad request') }, 'never'] });
    const model = createModel(mock, { retry: { sleep: async () => undefined } });
    const error = await model.generate({ prompt: 'hi' }).catch((e: unknown) => e);
    expect((error as Error).message).to.contain('bad request');
    expect(mock.calls).to.have.length(1);
  });

  it('recognizes a 429 from an HTTP provider and Bedrock\'s ThrottlingException', () => {
    const http429 = new APICallError({ message: 'Too Many Requests', url: 'http://127.0.0.1/v1/chat/completions', requestBodyValues: {}, statusCode: 429 });
    expect(isThrottlingError(http429)).to.equal(true);
    expect(isThrottlingError(mockThrottlingError())).to.equal(true);
    expect(isThrottlingError(new Error('ValidationException'))).to.equal(false);
  });
});
