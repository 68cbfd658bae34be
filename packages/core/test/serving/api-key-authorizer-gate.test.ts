import { expect } from 'chai';
import { API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS, apiKeyAuthorizerCacheTtl, apiKeyAuthorizerGateRefusal, apiKeyAuthorizerIdentitySources } from '../../src/index.js';

const KEY = `sk_test_abcdefghijkl_${'k'.repeat(43)}`;

describe('the API-key authorizer gate (what infra configures and fw dev refuses)', () => {
  it('caches 300 s unless the context says otherwise (a number or its text)', () => {
    expect(apiKeyAuthorizerCacheTtl(undefined)).to.equal(API_KEY_AUTHORIZER_DEFAULT_CACHE_TTL_SECONDS).and.to.equal(300);
    expect(apiKeyAuthorizerCacheTtl(0)).to.equal(0);
    expect(apiKeyAuthorizerCacheTtl('0')).to.equal(0);
    expect(apiKeyAuthorizerCacheTtl('60')).to.equal(60);
  });

  it('lists Authorization as the only identity source when it caches, none when it does not', () => {
    expect(apiKeyAuthorizerIdentitySources(300)).to.deep.equal(['$request.header.Authorization']);
    expect(apiKeyAuthorizerIdentitySources(0)).to.deep.equal([]);
  });

  it('cached, refuses a request without Authorization (a key in X-API-Key alone included), naming the fix', () => {
    const refusal = apiKeyAuthorizerGateRefusal(300, { 'x-api-key': KEY });
    expect(refusal).to.match(/^API_KEY_IN_X_API_KEY: /);
    expect(refusal).to.contain('Authorization: Bearer sk_');
    expect(refusal).not.to.contain(KEY);
    expect(apiKeyAuthorizerGateRefusal(300, {})).to.match(/^AUTHORIZATION_MISSING: /);
    // Empty counts as missing for API Gateway.
    expect(apiKeyAuthorizerGateRefusal(300, { authorization: '' })).to.match(/^AUTHORIZATION_MISSING: /);
    expect(apiKeyAuthorizerGateRefusal(300, { authorization: `Bearer ${KEY}` })).to.equal(undefined);
    expect(apiKeyAuthorizerGateRefusal(300, { authorization: 'Bearer a.jwt.token', 'x-api-key': KEY })).to.equal(undefined);
  });

  it('uncached, lets every request reach the authorizer', () => {
    expect(apiKeyAuthorizerGateRefusal(0, { 'x-api-key': KEY })).to.equal(undefined);
    expect(apiKeyAuthorizerGateRefusal(0, {})).to.equal(undefined);
  });
});
