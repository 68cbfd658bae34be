import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { VaultKeyError } from '../errors.js';
import type { EnvelopeKeyProvider } from './envelope-key-provider.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
/** Unwrapped data keys kept in memory (a KMS Decrypt per read would dominate a token lookup). */
const CACHE_LIMIT = 256;

/**
 * Envelope encryption of short secrets (tokens): AES-256-GCM under a fresh data key per value, the data key stored
 * wrapped by the provider's master key, `aad` (the row's id) bound into the tag so a value moved to another row does
 * not decrypt. The stored form is text: `v1.<wrapped key>.<iv>.<ciphertext+tag>`, base64url parts.
 */
export class EnvelopeCipher {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(readonly provider: EnvelopeKeyProvider) {}

  async encrypt(plaintext: string, aad: string): Promise<string> {
    const key = await this.provider.generateDataKey();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.plaintext, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const wrapped = Buffer.from(key.encrypted).toString('base64url');
    this.remember(wrapped, key.plaintext);
    return [VERSION, wrapped, iv.toString('base64url'), body.toString('base64url')].join('.');
  }

  async decrypt(stored: string, aad: string): Promise<string> {
    const parts = stored.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new VaultKeyError('a stored secret is not in the v1 envelope format');
    const [, wrapped, iv, body] = parts as [string, string, string, string];
    let key = this.keys.get(wrapped);
    if (!key) {
      key = await this.provider.decryptDataKey(Buffer.from(wrapped, 'base64url'));
      this.remember(wrapped, key);
    }
    const data = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new VaultKeyError('a stored secret does not decrypt: it was altered, or belongs to another row', { cause: error });
    }
  }

  private remember(wrapped: string, key: Uint8Array): void {
    if (this.keys.size >= CACHE_LIMIT) this.keys.delete(this.keys.keys().next().value as string);
    this.keys.set(wrapped, key);
  }
}
