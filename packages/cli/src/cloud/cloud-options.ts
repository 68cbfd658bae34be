import { STAGE_NAME } from '@framework/core';
import { CloudCommandError } from '../errors.js';

/** Options shared by `fw synth`, `fw deploy`, `fw diff` and `fw destroy`. */
export interface CloudOptions {
  /** @default 'dev' */
  readonly stage: string;
  /** Skip confirmation prompts (`fw destroy`). @default false */
  readonly yes: boolean;
  /** Run cdk-nag's AwsSolutions checks during synthesis. @default true */
  readonly checks: boolean;
  /**
   * Also run aws-cdk-lib's built-in CloudFormation validation (`--validation`). Off by default: it about doubles the
   * synth time and never changes a template; cdk-nag (`checks`) is the gate. @default false
   */
  readonly validation: boolean;
  /** Prepare the account and region for CDK deployments first (`fw deploy`). @default false */
  readonly bootstrap: boolean;
  /** Cloud assembly folder. @default - `cdk.out` in the project */
  readonly out?: string;
}

const FLAGS: Record<string, readonly string[]> = {
  synth: ['--stage', '--no-checks', '--validation', '--out'],
  deploy: ['--stage', '--no-checks', '--validation', '--bootstrap'],
  diff: ['--stage', '--no-checks', '--validation'],
  destroy: ['--stage', '--yes', '-y'],
};

/** Parses `--stage prod`, `--stage=prod`, `--yes`, `--no-checks`, `--validation`, `--bootstrap`, `--out <dir>`. */
export function parseCloudOptions(command: keyof typeof FLAGS, argv: readonly string[]): CloudOptions {
  const allowed = FLAGS[command]!;
  let stage = 'dev';
  let yes = false;
  let checks = true;
  let validation = false;
  let bootstrap = false;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (!allowed.includes(flag)) {
      throw new CloudCommandError('FW_ERR_CLOUD_BAD_ARGUMENT', `fw ${command}: unknown option ${JSON.stringify(arg)} (options: ${allowed.join(', ')})`);
    }
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('-')) throw new CloudCommandError('FW_ERR_CLOUD_BAD_ARGUMENT', `fw ${command}: ${flag} needs a value, e.g. ${flag} ${flag === '--stage' ? 'prod' : 'cdk.out'}`);
      return v;
    };
    if (flag === '--stage') stage = value();
    else if (flag === '--out') out = value();
    else if (flag === '--yes' || flag === '-y') yes = true;
    else if (flag === '--no-checks') checks = false;
    else if (flag === '--validation') validation = true;
    else if (flag === '--bootstrap') bootstrap = true;
  }
  if (!STAGE_NAME.test(stage)) {
    throw new CloudCommandError('FW_ERR_CLOUD_BAD_ARGUMENT', `fw ${command}: --stage ${JSON.stringify(stage)} is not a stage name (lowercase letters, digits and "-", starting with a letter)`);
  }
  return { stage, yes, checks, validation, bootstrap, out };
}
