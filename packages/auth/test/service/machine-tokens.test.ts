import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { IdentityProviderError, InvalidUserInputError, MachineTokens, UnknownAppClientError } from '../../src/index.js';

/** A token endpoint on 127.0.0.1 that answers with what `answer` says and records each request's form. */
async function tokenEndpoint(answer: (form: URLSearchParams, authorization: string | undefined) => { status: number; body: unknown }) {
  const requests: { form: URLSearchParams; authorization: string | undefined }[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const form = new URLSearchParams(text);
      requests.push({ form, authorization: request.headers.authorization });
      const { status, body } = answer(form, request.headers.authorization);
      // Answer a little later, so concurrent callers are in flight together.
      setTimeout(() => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/token`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('MachineTokens: client-credentials tokens, cached and renewed early', () => {
  let issued = 0;
  let failing = false;
  let endpoint: Awaited<ReturnType<typeof tokenEndpoint>>;
  let now = 1_700_000_000_000;
  const tokens = () => new MachineTokens({ resolve: async (name) => ({ tokenUrl: endpoint.url, clientId: `${name}-id`, ...(name === 'secret' ? { clientSecret: 's3:cr t' } : {}) }), resourceServer: 'shop', now: () => now });

  before(async () => {
    endpoint = await tokenEndpoint((form) => {
      if (form.get('client_id') === 'nope-id') return { status: 400, body: { error: 'invalid_client', error_description: 'unknown client' } };
      if (form.get('scope')?.includes('shop/admin')) return { status: 400, body: { error: 'invalid_scope' } };
      if (failing) return { status: 503, body: { error: 'temporarily_unavailable' } };
      return { status: 200, body: { access_token: `token-${++issued}`, expires_in: 3600, token_type: 'Bearer' } };
    });
  });
  after(() => endpoint.close());
  beforeEach(() => {
    endpoint.requests.length = 0;
    failing = false;
  });

  it('concurrent callers share one request; the next call is served from the cache', async () => {
    const cache = tokens();
    const all = await Promise.all(Array.from({ length: 10 }, () => cache.token('jobs', ['orders:read'])));
    expect(new Set(all).size).to.equal(1);
    expect(await cache.token('jobs', ['orders:read'])).to.equal(all[0]);
    expect(endpoint.requests).to.have.length(1);
    expect(endpoint.requests[0]!.form.get('scope')).to.equal('shop/orders:read');
    expect(endpoint.requests[0]!.form.get('grant_type')).to.equal('client_credentials');
    // Another scope set is another token.
    await cache.token('jobs', ['orders:write']);
    expect(endpoint.requests).to.have.length(2);
  });

  it('renews a minute before expiry; a failed renewal while the token is valid returns it, after expiry throws', async () => {
    const cache = tokens();
    const first = await cache.token('jobs');
    now += 58 * 60_000;
    expect(await cache.token('jobs')).to.equal(first);
    now += 90_000;
    failing = true;
    expect(await cache.token('jobs')).to.equal(first);
    expect(endpoint.requests).to.have.length(2);
    now += 60_000;
    const error = await cache.token('jobs').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(IdentityProviderError).with.property('code', 'FW_ERR_AUTH_PROVIDER');
    // A failure is not kept: the next call asks again and gets a fresh token.
    failing = false;
    const renewed = await cache.token('jobs');
    expect(renewed).to.not.equal(first);
    expect(endpoint.requests).to.have.length(4);
  });

  it('sends a confidential client\'s secret with HTTP Basic, a public client\'s id in the body', async () => {
    await tokens().token('secret');
    expect(endpoint.requests[0]!.authorization).to.equal(`Basic ${Buffer.from('secret-id:s3%3Acr%20t').toString('base64')}`);
    expect(endpoint.requests[0]!.form.get('client_id')).to.equal(null);
    await tokens().token('public');
    expect(endpoint.requests[1]!.authorization).to.equal(undefined);
    expect(endpoint.requests[1]!.form.get('client_id')).to.equal('public-id');
  });

  it('answers a refused client and a refused scope with their classes', async () => {
    expect(await tokens().token('nope').catch((e: unknown) => e)).to.be.instanceOf(UnknownAppClientError);
    expect(await tokens().token('jobs', ['admin']).catch((e: unknown) => e)).to.be.instanceOf(InvalidUserInputError);
    expect(await tokens().token('').catch((e: unknown) => e)).to.be.instanceOf(InvalidUserInputError);
  });
});
