import type { KMSClient } from '@aws-sdk/client-kms';
import { VaultKeyError } from '../errors.js';
import type { DataKey, EnvelopeKeyProvider } from './envelope-key-provider.js';

export interface KmsKeyProviderOptions {
  /** The KMS key (id, ARN or alias) data keys are generated under. */
  readonly keyId: string;
  /**
   * The KMS client.
   * @default - a client for the function's region, created on first use
   */
  readonly client?: Pick<KMSClient, 'send'>;
}

/** Data keys from AWS KMS (`GenerateDataKey` AES_256, `Decrypt`): the master key never leaves KMS. */
export class KmsKeyProvider implements EnvelopeKeyProvider {
  readonly keyName: string;
  private client: Pick<KMSClient, 'send'> | undefined;
  private sdk: typeof import('@aws-sdk/client-kms') | undefined;

  constructor(private readonly options: KmsKeyProviderOptions) {
    if (!options.keyId) throw new VaultKeyError('KmsKeyProvider needs a keyId');
    this.keyName = `kms:${options.keyId}`;
    this.client = options.client;
  }

  async generateDataKey(): Promise<DataKey> {
    const { sdk, client } = await this.load();
    try {
      const out = await client.send(new sdk.GenerateDataKeyCommand({ KeyId: this.options.keyId, KeySpec: 'AES_256' }));
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error('GenerateDataKey answered no key');
      return { plaintext: out.Plaintext, encrypted: out.CiphertextBlob };
    } catch (error) {
      throw new VaultKeyError(`KMS GenerateDataKey on ${this.options.keyId} failed (${(error as Error).name}: ${(error as Error).message}); the function needs kms:GenerateDataKey on the key`, { cause: error });
    }
  }

  async decryptDataKey(encrypted: Uint8Array): Promise<Uint8Array> {
    const { sdk, client } = await this.load();
    try {
      const out = await client.send(new sdk.DecryptCommand({ KeyId: this.options.keyId, CiphertextBlob: encrypted }));
      if (!out.Plaintext) throw new Error('Decrypt answered no key');
      return out.Plaintext;
    } catch (error) {
      throw new VaultKeyError(`KMS Decrypt on ${this.options.keyId} failed (${(error as Error).name}: ${(error as Error).message}); the function needs kms:Decrypt on the key`, { cause: error });
    }
  }

  // The SDK is loaded only when KMS is used (never under fw dev with the local key).
  private async load(): Promise<{ sdk: typeof import('@aws-sdk/client-kms'); client: Pick<KMSClient, 'send'> }> {
    this.sdk ??= await import('@aws-sdk/client-kms');
    this.client ??= new this.sdk.KMSClient({});
    return { sdk: this.sdk, client: this.client };
  }
}
