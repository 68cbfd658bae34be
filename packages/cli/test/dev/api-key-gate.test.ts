import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { apiKeyGate, deployedApiKeyAuthorizerTtl } from '../../src/dev/auth/api-key-gate.js';
import type { DevLogger } from '../../src/dev/engines/engine.js';

const KEY = `sk_test_abcdefghijkl_${'k'.repeat(43)}`;

describe("fw dev's gateway in front of routes that accept API keys", () => {
  const warnings: string[] = [];
  const log: DevLogger = { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
  let dir: string;
  beforeEach(() => {
    warnings.length = 0;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-key-gate-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads the authorizer's cache TTL from cdk.json's context as fw deploy does (default 300; a broken file warns)", () => {
    expect(deployedApiKeyAuthorizerTtl(dir, log)).to.equal(300);
    fs.writeFileSync(path.join(dir, 'cdk.json'), JSON.stringify({ context: { '@framework/infra:apiKeyAuthorizerCacheTtl': 0 } }));
    expect(deployedApiKeyAuthorizerTtl(dir, log)).to.equal(0);
    fs.writeFileSync(path.join(dir, 'cdk.json'), '{ not json');
    expect(deployedApiKeyAuthorizerTtl(dir, log)).to.equal(300);
    expect(warnings.join('\n')).to.contain('cdk.json');
  });

  it('cached (the default): refuses X-API-Key alone, reads a key only from Authorization', () => {
    expect(apiKeyGate(300, { 'x-api-key': KEY }).refused).to.match(/^API_KEY_IN_X_API_KEY: .*Authorization: Bearer sk_/);
    expect(apiKeyGate(300, {}).refused).to.match(/^AUTHORIZATION_MISSING/);
    expect(apiKeyGate(300, { authorization: `Bearer ${KEY}` })).to.deep.equal({ presentsKey: true });
    // A token in Authorization is what the authorizer verifies: the X-API-Key beside it is not a key presented.
    expect(apiKeyGate(300, { authorization: 'Bearer a.jwt.token', 'x-api-key': KEY })).to.deep.equal({ presentsKey: false });
  });

  it('uncached (TTL 0): takes X-API-Key too, and lets a request without credentials through to the function', () => {
    expect(apiKeyGate(0, { 'x-api-key': KEY })).to.deep.equal({ presentsKey: true });
    expect(apiKeyGate(0, {})).to.deep.equal({ presentsKey: false });
  });
});
