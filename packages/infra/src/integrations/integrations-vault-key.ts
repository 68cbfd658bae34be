import { ENV } from '@framework/core/names';
import type { ResourceSettings } from '@framework/core';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as iam from 'aws-cdk-lib/aws-iam';
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
 * The master key of `@framework/integrations`' vault (OAuth connection tokens, webhook endpoints' signing secrets): a
 * symmetric KMS key with yearly rotation. `FrameworkStack` creates one per app and stage when a function's code calls
 * `createOAuthConnections(` or `createWebhooks(`, and gives those functions only `kms:GenerateDataKey` and
 * `kms:Decrypt` on this key (`grant`) and `FW_INTEGRATIONS_KMS_KEY_ID` naming it (`environment`). The key policy is
 * CDK's default (the account may delegate to IAM): no function is named in it, so the grants in the functions' roles
 * are the only way to use the key.
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

  /** Lets `fn` encrypt and decrypt vault secrets: the two KMS actions the vault calls, and the variable naming the key. */
  public grantUse(fn: lambda.Function): void {
    this.grant(fn);
    fn.addEnvironment(ENV.integrationsKmsKeyId, this.key.keyArn);
  }

  /** The two KMS actions the vault calls (`GenerateDataKey` per write, `Decrypt` per data key), on this key only. */
  public grant(grantee: iam.IGrantable): void {
    this.key.grant(grantee, 'kms:GenerateDataKey', 'kms:Decrypt');
  }

  /** The variable naming the key, for the functions granted its use. */
  public get environment(): Record<string, string> {
    return { [ENV.integrationsKmsKeyId]: this.key.keyArn };
  }
}
