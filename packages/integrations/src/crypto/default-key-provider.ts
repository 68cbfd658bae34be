import { ENV } from '@framework/core/names';
import * as path from 'node:path';
import { VaultKeyError } from '../errors.js';
import type { EnvelopeKeyProvider } from './envelope-key-provider.js';
import { KmsKeyProvider } from './kms-key-provider.js';
import { LocalKeyFileProvider } from './local-key-file-provider.js';

/** The variable naming the KMS key of the token vault (set on the functions that use connections). */
export const VAULT_KMS_KEY_ENV = ENV.integrationsKmsKeyId;

/**
 * The vault's key provider for this process: KMS when `FW_INTEGRATIONS_KMS_KEY_ID` is set; else, outside Lambda
 * (`fw dev`, tests, scripts), the local key file `.fw/integrations/vault.key` under the project root. A Lambda
 * without the variable fails: deployed tokens are never encrypted with a key file.
 */
export function defaultEnvelopeKeyProvider(env: NodeJS.ProcessEnv = process.env): EnvelopeKeyProvider {
  const keyId = env[VAULT_KMS_KEY_ENV];
  if (keyId) return new KmsKeyProvider({ keyId });
  if (env['AWS_LAMBDA_FUNCTION_NAME'] && !env[ENV.devEndpoint]) {
    throw new VaultKeyError(`${VAULT_KMS_KEY_ENV} is not set in this function; give the function the vault's KMS key (and kms:GenerateDataKey, kms:Decrypt on it)`);
  }
  const root = env[ENV.projectRoot] ?? process.cwd();
  return new LocalKeyFileProvider(path.join(root, '.fw', 'integrations', 'vault.key'));
}
