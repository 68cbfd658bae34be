import { BaseCredentials, type IActionAwareIoHost, type IIoHost, type ToolkitAction } from '@aws-cdk/toolkit-lib';
import { CloudCommandError } from '../errors.js';

/** How long the credential chain may take before we call it missing (SSO and process providers can be slow). */
const CREDENTIALS_TIMEOUT_MS = 15_000;

/** The sentence every "no credentials" failure ends with. */
export function credentialsHelp(command: string, stage: string, region: string): string {
  return [
    `fw ${command} needs cloud credentials for stage "${stage}" (region ${region}), and none are configured.`,
    'Configure them in one of these ways, then run the command again:',
    '  - a profile: `aws configure` (access keys) or `aws configure sso` then `aws sso login`; select it with AWS_PROFILE=<name>',
    '  - environment variables: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (plus AWS_SESSION_TOKEN for temporary credentials)',
    '  - on a cloud machine or CI runner: its attached role (instance profile, container or web identity credentials)',
    '`fw synth` writes the cloud assembly without credentials; `fw dev` runs the app locally without any.',
  ].join('\n');
}

/**
 * Resolves credentials the way the deployment will (the AWS CLI-compatible chain of the toolkit) before any
 * synthesis, so a machine without credentials fails within seconds with instructions, not after a long synth with
 * an SDK stack trace. Network lookups are bounded by short timeouts.
 */
export async function requireCredentials(ioHost: IIoHost, command: ToolkitAction, stage: string, region: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const actionHost: IActionAwareIoHost = { notify: (m) => ioHost.notify({ ...m, action: command }), requestResponse: (m) => ioHost.requestResponse({ ...m, action: command }) };
    const config = await BaseCredentials.awsCliCompatible().sdkBaseConfig(actionHost, { requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 } });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no credentials after ${CREDENTIALS_TIMEOUT_MS / 1000}s`)), CREDENTIALS_TIMEOUT_MS);
    });
    const credentials = await Promise.race([config.credentialProvider(), timeout]);
    if (!credentials?.accessKeyId) throw new Error('empty credentials');
  } catch (error) {
    throw new CloudCommandError('FW_ERR_CLOUD_NO_CREDENTIALS', credentialsHelp(command, stage, region), { cause: error });
  } finally {
    if (timer) clearTimeout(timer);
  }
}
