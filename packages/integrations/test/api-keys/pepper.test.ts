import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { DEV_PEPPER_FILE, IntegrationsError, loadPepper } from '../../src/index.js';

describe('the API keys pepper', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'pepper-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('comes from FW_API_KEYS_PEPPER, which must be long enough', () => {
    expect(loadPepper({ FW_API_KEYS_PEPPER: 'p'.repeat(32) }, dir)).to.equal('p'.repeat(32));
    expect(() => loadPepper({ FW_API_KEYS_PEPPER: 'short' }, dir)).to.throw(IntegrationsError, 'at least 32');
  });

  it('is required deployed (no fw dev endpoint), never made up', () => {
    expect(() => loadPepper({}, dir)).to.throw(IntegrationsError, 'FW_API_KEYS_PEPPER is not set');
  });

  it('under fw dev is created once under .fw/, owner-only, and read back', () => {
    const env = { FW_DEV_ENDPOINT: 'http://127.0.0.1:1' };
    const first = loadPepper(env, dir);
    expect(first.length).to.be.greaterThanOrEqual(32);
    expect(loadPepper(env, dir)).to.equal(first);
    const file = path.join(dir, DEV_PEPPER_FILE);
    expect(readFileSync(file, 'utf8')).to.equal(first);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });
});
