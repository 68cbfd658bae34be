import * as path from 'node:path';
import { isFrameworkError, type AppDefinition } from '@framework/core';
import { CloudCommandError } from '../errors.js';
import type { CloudOptions } from './cloud-options.js';
import { readProjectContext } from './project-context.js';
import { licenseKeyContext } from '../license/project-license.js';
import { startSynthInputs } from './synth-inputs.js';
import { TOOLKIT_SYNTH_CONTEXT } from './synth-context.js';

/**
 * Bundles, builds and synthesizes the stage in this process, without loading the deployment toolkit (about a
 * second of module loading `fw synth` does not need), with the context the toolkit would pass. Resolves to the cloud
 * assembly folder.
 */
export async function synthesizeStage(app: AppDefinition, options: Pick<CloudOptions, 'out' | 'checks' | 'validation'>): Promise<string> {
  const outdir = path.resolve(app.rootDir, options.out ?? 'cdk.out');
  // The license key rides in the context so `fw synth` and `fw deploy` build the same functions.
  const projectContext = { ...readProjectContext(app.rootDir), ...licenseKeyContext(app.rootDir) };
  // Bundling and the handlers' scopes in a worker thread while this one loads aws-cdk-lib (synth-inputs.ts).
  const inputs = startSynthInputs(app);
  const { buildCdkApp } = await import('@framework/infra');
  const prepared = await inputs;
  try {
    const { cdkApp } = buildCdkApp(app, { outdir, context: { ...projectContext, ...TOOLKIT_SYNTH_CONTEXT }, checks: options.checks, validation: options.validation, ...prepared });
    return cdkApp.synth().directory;
  } catch (error) {
    if (isFrameworkError(error)) throw error;
    // cdk-nag findings (and any other validation plugin) end here, after their report was printed.
    throw new CloudCommandError('FW_ERR_CLOUD_FAILED', `fw synth failed: ${(error as Error).message}`, { cause: error });
  }
}
