import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeSync, closeSync, fsyncSync } from 'node:fs';
import * as path from 'node:path';
import { VaultKeyError } from '../errors.js';
import type { DataKey, EnvelopeKeyProvider } from './envelope-key-provider.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The local stand-in for KMS: a 256-bit master key in a file (`.fw/integrations/vault.key` of the project by
 * default), created on first use with mode 0600 and never committed (`.fw/` is ignored). Data keys are wrapped with
 * AES-256-GCM under it. Losing the file loses the local connections' tokens (reconnect them); nothing deployed uses it.
 */
export class LocalKeyFileProvider implements EnvelopeKeyProvider {
  readonly keyName: string;
  private masterKey: Buffer | undefined;

  constructor(private readonly file: string) {
    this.keyName = `local:${path.basename(file)}`;
  }

  async generateDataKey(): Promise<DataKey> {
    const plaintext = randomBytes(KEY_BYTES);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(), iv);
    const wrapped = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { plaintext, encrypted: Buffer.concat([iv, wrapped, cipher.getAuthTag()]) };
  }

  async decryptDataKey(encrypted: Uint8Array): Promise<Uint8Array> {
    const data = Buffer.from(encrypted);
    if (data.length !== IV_BYTES + KEY_BYTES + TAG_BYTES) throw new VaultKeyError(`a wrapped data key has ${data.length} bytes, not ${IV_BYTES + KEY_BYTES + TAG_BYTES}`);
    const decipher = createDecipheriv('aes-256-gcm', this.key(), data.subarray(0, IV_BYTES));
    decipher.setAuthTag(data.subarray(IV_BYTES + KEY_BYTES));
    try {
      return Buffer.concat([decipher.update(data.subarray(IV_BYTES, IV_BYTES + KEY_BYTES)), decipher.final()]);
    } catch (error) {
      throw new VaultKeyError(`a data key does not unwrap with the local key ${this.file} (it was made with another key file)`, { cause: error });
    }
  }

  private key(): Buffer {
    if (this.masterKey) return this.masterKey;
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    try {
      // `wx`: of two processes creating it at once, one wins and the other reads the winner's key.
      const fd = openSync(this.file, 'wx', 0o600);
      try {
        writeSync(fd, randomBytes(KEY_BYTES).toString('base64') + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new VaultKeyError(`the local key file ${this.file} cannot be created (${(error as Error).message})`, { cause: error });
    }
    const key = Buffer.from(readFileSync(this.file, 'utf8').trim(), 'base64');
    if (key.length !== KEY_BYTES) throw new VaultKeyError(`the local key file ${this.file} does not hold a 256-bit base64 key; delete it to make a new one (local connections must then be reconnected)`);
    return (this.masterKey = key);
  }
}
