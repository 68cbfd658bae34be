import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { expect } from 'chai';
import { DEV_PEPPER_FILE, IntegrationsError, loadPepper } from '../../src/index.js';

const SECRET_PEPPER = 'S'.repeat(64);

describe('the API keys pepper', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'pepper-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('comes from FW_API_KEYS_PEPPER, which must be long enough', async () => {
    expect(await loadPepper({ FW_API_KEYS_PEPPER: 'p'.repeat(32) }, dir)).to.equal('p'.repeat(32));
    await expectRejection(loadPepper({ FW_API_KEYS_PEPPER: 'short' }, dir), 'at least 32');
  });

  it('is required deployed (no fw dev endpoint, no secret), never made up', async () => {
    await expectRejection(loadPepper({}, dir), 'Neither FW_API_KEYS_PEPPER nor FW_API_KEYS_PEPPER_SECRET_ARN is set');
  });

  it('under fw dev is created once under .fw/, owner-only, and read back', async () => {
    const env = { FW_DEV_ENDPOINT: 'http://127.0.0.1:1' };
    const first = await loadPepper(env, dir);
    expect(first.length).to.be.greaterThanOrEqual(32);
    expect(await loadPepper(env, dir)).to.equal(first);
    const file = path.join(dir, DEV_PEPPER_FILE);
    expect(readFileSync(file, 'utf8')).to.equal(first);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });

  describe('deployed, from the secret named in FW_API_KEYS_PEPPER_SECRET_ARN', () => {
    const sm = mockClient(SecretsManagerClient);
    afterEach(() => sm.reset());
    after(() => sm.restore());

    it('reads the secret with GetSecretValue by its ARN, once per container', async () => {
      const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ApiKeysPepper-once';
      sm.on(GetSecretValueCommand, { SecretId: arn }).resolves({ SecretString: SECRET_PEPPER });
      const env = { FW_API_KEYS_PEPPER_SECRET_ARN: arn };
      expect(await Promise.all([loadPepper(env, dir), loadPepper(env, dir)])).to.deep.equal([SECRET_PEPPER, SECRET_PEPPER]);
      expect(await loadPepper(env, dir)).to.equal(SECRET_PEPPER);
      expect(sm.commandCalls(GetSecretValueCommand)).to.have.length(1);
    });

    it('FW_API_KEYS_PEPPER set by hand wins over the secret', async () => {
      const reader = async () => expect.fail('the secret must not be read');
      expect(await loadPepper({ FW_API_KEYS_PEPPER: 'p'.repeat(32), FW_API_KEYS_PEPPER_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:x' }, dir, reader)).to.equal('p'.repeat(32));
    });

    it('forgets a failed read (the next request tries again) and refuses a secret too short to be a pepper', async () => {
      const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ApiKeysPepper-retry';
      let reads = 0;
      const flaky = async () => {
        reads += 1;
        if (reads === 1) throw new Error('ThrottlingException');
        return SECRET_PEPPER;
      };
      await expectRejection(loadPepper({ FW_API_KEYS_PEPPER_SECRET_ARN: arn }, dir, flaky), 'ThrottlingException', Error);
      expect(await loadPepper({ FW_API_KEYS_PEPPER_SECRET_ARN: arn }, dir, flaky)).to.equal(SECRET_PEPPER);
      await expectRejection(loadPepper({ FW_API_KEYS_PEPPER_SECRET_ARN: `${arn}-short` }, dir, async () => 'short'), 'at least 32');
    });
  });
});

async function expectRejection(promise: Promise<unknown>, message: string, type: new (...args: never[]) => Error = IntegrationsError): Promise<void> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, 'expected a rejection').to.be.instanceOf(type);
  expect((error as Error).message).to.contain(message);
}
