import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultEnvelopeKeyProvider, EnvelopeCipher, KmsKeyProvider, LocalKeyFileProvider, VaultKeyError } from '../../src/index.js';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  expect.fail('expected a failure');
}

describe('envelope encryption', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fw-vault-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('creates the local key file on first use (mode 0600) and decrypts with it from another process object', async () => {
    const file = path.join(dir, '.fw', 'integrations', 'vault.key');
    const stored = await new EnvelopeCipher(new LocalKeyFileProvider(file)).encrypt('gho_secret', 'access:c1');
    expect(stored).to.match(/^v1\./).and.not.include('gho_secret');
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).to.have.length(32);
    expect(await new EnvelopeCipher(new LocalKeyFileProvider(file)).decrypt(stored, 'access:c1')).to.equal('gho_secret');
  });

  it('refuses a value moved to another row, an altered value and another key file', async () => {
    const cipher = new EnvelopeCipher(new LocalKeyFileProvider(path.join(dir, 'a.key')));
    const stored = await cipher.encrypt('token', 'access:c1');
    expect(await rejection(cipher.decrypt(stored, 'access:c2'))).to.be.instanceOf(VaultKeyError);
    const parts = stored.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(await rejection(cipher.decrypt([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'access:c1'))).to.be.instanceOf(VaultKeyError);
    const other = new EnvelopeCipher(new LocalKeyFileProvider(path.join(dir, 'b.key')));
    expect(await rejection(other.decrypt(stored, 'access:c1'))).to.be.instanceOf(VaultKeyError).and.have.property('message').that.includes('another key file');
  });

  it('uses KMS data keys when deployed (GenerateDataKey once per value, Decrypt once per data key)', async () => {
    const calls: string[] = [];
    const fakeKms = {
      async send(command: { constructor: { name: string }; input: { CiphertextBlob?: Uint8Array } }) {
        calls.push(command.constructor.name);
        if (command.constructor.name === 'GenerateDataKeyCommand') return { Plaintext: new Uint8Array(32).fill(7), CiphertextBlob: new Uint8Array([1, 2, 3]) };
        expect([...command.input.CiphertextBlob!]).to.deep.equal([1, 2, 3]);
        return { Plaintext: new Uint8Array(32).fill(7) };
      },
    };
    const writer = new EnvelopeCipher(new KmsKeyProvider({ keyId: 'alias/vault', client: fakeKms as never }));
    const stored = await writer.encrypt('xoxb-token', 'access:c1');
    const reader = new EnvelopeCipher(new KmsKeyProvider({ keyId: 'alias/vault', client: fakeKms as never }));
    expect(await reader.decrypt(stored, 'access:c1')).to.equal('xoxb-token');
    expect(await reader.decrypt(stored, 'access:c1')).to.equal('xoxb-token');
    expect(calls).to.deep.equal(['GenerateDataKeyCommand', 'DecryptCommand']);
  });

  it('picks KMS when the key variable is set, the local file otherwise, and refuses a Lambda without the variable', () => {
    expect(defaultEnvelopeKeyProvider({ FW_INTEGRATIONS_KMS_KEY_ID: 'alias/v' })).to.be.instanceOf(KmsKeyProvider);
    expect(defaultEnvelopeKeyProvider({ FW_PROJECT_ROOT: dir }).keyName).to.equal('local:vault.key');
    expect(() => defaultEnvelopeKeyProvider({ AWS_LAMBDA_FUNCTION_NAME: 'f' })).to.throw(VaultKeyError, /FW_INTEGRATIONS_KMS_KEY_ID/);
  });
});
