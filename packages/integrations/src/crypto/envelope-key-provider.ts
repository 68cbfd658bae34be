/** A data key: the plaintext encrypts one value, the encrypted form is stored next to it. */
export interface DataKey {
  readonly plaintext: Uint8Array;
  readonly encrypted: Uint8Array;
}

/**
 * Where data keys come from (envelope encryption): the master key never leaves the provider (KMS deployed, a local
 * key file under `fw dev`); every value is encrypted with a fresh 256-bit data key, stored wrapped by the master key.
 */
export interface EnvelopeKeyProvider {
  /** A name for the master key (log lines, the `kid` of stored blobs never carry key material). */
  readonly keyName: string;
  /** A fresh AES-256 data key, in plaintext and wrapped. */
  generateDataKey(): Promise<DataKey>;
  /** Unwraps a data key made by `generateDataKey`. */
  decryptDataKey(encrypted: Uint8Array): Promise<Uint8Array>;
}
