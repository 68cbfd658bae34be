import { expect } from 'chai';
import { main } from '../src/routes/health/get.js';
import { call } from './support/http-event.js';

describe('GET /health', () => {
  it('answers 200 with a status, an ISO 8601 timestamp and the request id, without a token', async () => {
    // Given an anonymous request (the route is public)
    // When it reaches the health route
    const response = await call(main, { method: 'GET', path: '/health' });

    // Then it is answered
    expect(response.statusCode).to.equal(200);
    const body = response.body as { status: string; timestamp: string; requestId: string };
    expect(body.status).to.equal('ok');
    expect(new Date(body.timestamp).toISOString()).to.equal(body.timestamp);
    expect(body.requestId).to.be.a('string').and.not.equal('');
  });
});
