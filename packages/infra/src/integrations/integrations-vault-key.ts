import { ENV } from '@framework/core/names';
import type { ResourceSettings } from '@framework/core';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { dataRemovalPolicy } from '../stack/removal-policy.js';

/** Props of `IntegrationsVaultKey`. */
export interface IntegrationsVaultKeyProps {
  /** Removal policy source (retained unless the stage destroys data). */
  readonly resources: ResourceSettings;
  /**
   * An alias for the key (`alias/<project>-<stage>-integrations-vault`).
   * @default - none
   */
  readonly alias?: string;
}

/**
 * The master key of `@framework/integrations`' token vault: a symmetric KMS key with yearly rotation. Functions that
 * use OAuth connections get `grantUse(fn)`: `kms:GenerateDataKey` and `kms:Decrypt` on this key only, and
 * `FW_INTEGRATIONS_KMS_KEY_ID` set to its ARN. Not created by `FrameworkStack` on its own: add it next to the stack
 * and grant the functions that connect accounts or refresh tokens (`stack.functions`).
 */
export class IntegrationsVaultKey extends Construct {
  public readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: IntegrationsVaultKeyProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Wraps the data keys of OAuth2 connection tokens (@framework/integrations)',
      enableKeyRotation: true,
      removalPolicy: dataRemovalPolicy(props.resources),
      ...(props.alias ? { alias: props.alias } : {}),
    });
  }

  /** Lets `fn` encrypt and decrypt connection tokens: the two KMS actions the vault calls, and the variable naming the key. */
  public grantUse(fn: lambda.Function): void {
    this.key.grant(fn, 'kms:GenerateDataKey', 'kms:Decrypt');
    fn.addEnvironment(ENV.integrationsKmsKeyId, this.key.keyArn);
  }
}
