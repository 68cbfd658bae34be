import * as path from 'node:path';
import { StackSelectionStrategy, Toolkit, ToolkitError, type ICloudAssemblySource, type StackSelector } from '@aws-cdk/toolkit-lib';
import { isFrameworkError, type AppDefinition } from '@framework/core';
import { buildCdkApp } from '@framework/infra';
import { CloudCommandError } from '../errors.js';
import { credentialsHelp } from './credentials.js';
import type { CloudOptions } from './cloud-options.js';
import { ProgressIoHost, type ProgressOutput } from './progress-io-host.js';
import { readProjectContext } from './project-context.js';
import { licenseKeyContext } from '../license/project-license.js';

export { loadCloudApp } from './load-cloud-app.js';

/** Everything a cloud command works with. */
export interface CloudContext {
  readonly app: AppDefinition;
  readonly toolkit: Toolkit;
  readonly ioHost: ProgressIoHost;
  readonly source: ICloudAssemblySource;
  /** The stage's stack (the only top-level stack; route shards are nested in it). */
  readonly stacks: StackSelector;
  readonly out: ProgressOutput;
}

/**
 * The toolkit and a cloud assembly source that bundles and synthesizes the stage in this process (with the
 * toolkit's context and output folder), so deploy, diff and destroy all act on the same synthesized app.
 */
export async function cloudContext(app: AppDefinition, options: CloudOptions, out: ProgressOutput = { write: (t) => process.stderr.write(t) }): Promise<CloudContext> {
  const ioHost = new ProgressIoHost(out);
  const toolkit = new Toolkit({ ioHost, emojis: false, color: false });
  const outdir = path.resolve(app.rootDir, options.out ?? 'cdk.out');
  // The license key rides in the context so `fw synth` and `fw deploy` build the same functions.
  const projectContext = { ...readProjectContext(app.rootDir), ...licenseKeyContext(app.rootDir) };
  const source = await toolkit.fromAssemblyBuilder(
    async (props) => {
      const { cdkApp } = buildCdkApp(app, { outdir: props.outdir ?? outdir, context: { ...projectContext, ...props.context }, checks: options.checks, validation: options.validation });
      return cdkApp.synth();
    },
    { outdir, disposeOutdir: false },
  );
  return { app, toolkit, ioHost, source, stacks: { strategy: StackSelectionStrategy.ALL_STACKS }, out };
}

/** Turns the toolkit's errors into ours: a message that says what to do, never a stack trace. */
export function toCloudError(error: unknown, command: string, app: AppDefinition): unknown {
  if (isFrameworkError(error)) return error;
  if (ToolkitError.isAuthenticationError(error)) return new CloudCommandError('FW_ERR_CLOUD_NO_CREDENTIALS', credentialsHelp(command, app.stage, app.region), { cause: error });
  if (ToolkitError.isBootstrapError(error) || /bootstrap/i.test((error as Error).message ?? '')) {
    return new CloudCommandError('FW_ERR_CLOUD_NOT_BOOTSTRAPPED', `${(error as Error).message}\nPrepare the account and region once with: fw deploy --bootstrap${app.stage === 'dev' ? '' : ` --stage ${app.stage}`}`, { cause: error });
  }
  if (ToolkitError.isToolkitError(error)) {
    // The assembly builder wraps our own errors (bundling, handler loading, nag): surface theirs, which say what to fix.
    const cause = error.cause as { message?: string } | undefined;
    if (isFrameworkError(cause)) return cause;
    return new CloudCommandError('FW_ERR_CLOUD_FAILED', `fw ${command} failed: ${error.message}${cause?.message ? `: ${cause.message}` : ''}`, { cause: error });
  }
  return error;
}
