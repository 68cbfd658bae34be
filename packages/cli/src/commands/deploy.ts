import { BootstrapEnvironments } from '@aws-cdk/toolkit-lib';
import { cloudContext, loadCloudApp, toCloudError } from '../cloud/cloud-app.js';
import { parseCloudOptions } from '../cloud/cloud-options.js';
import { requireCredentials } from '../cloud/credentials.js';
import { projectLicenseReport } from '../license/project-license.js';

/**
 * `fw deploy [--stage dev] [--bootstrap] [--no-checks]`: checks credentials first (a machine without any fails in
 * seconds with instructions), then synthesizes and deploys the stage's stack with progress, and prints its outputs.
 */
export async function run(argv: string[]): Promise<number> {
  const options = parseCloudOptions('deploy', argv);
  const started = Date.now();
  const app = await loadCloudApp(process.cwd(), options.stage);
  const ctx = await cloudContext(app, options);
  await requireCredentials(ctx.ioHost, 'deploy', app.stage, app.region);
  // Pro packages keep working without a valid key (they never take production down): say it here, before it ships.
  const license = await projectLicenseReport(process.cwd());
  for (const problem of license.problems) ctx.out.write(`WARNING license: ${problem}. The stage deploys and the package works, but it logs an UNLICENSED error and a LicenseProblem metric on every cold start (see fw license).\n`);
  ctx.out.write(`Deploying ${app.project} stage ${app.stage} to ${app.region} (preset ${app.config.preset}, ${app.units.length} functions)...\n`);
  try {
    if (options.bootstrap) await ctx.toolkit.bootstrap(BootstrapEnvironments.fromCloudAssemblySource(ctx.source));
    const result = await ctx.toolkit.deploy(ctx.source, { stacks: ctx.stacks });
    for (const stack of result.stacks) {
      process.stdout.write(`${stack.stackName}: deployed\n`);
      for (const [key, value] of Object.entries(stack.outputs)) process.stdout.write(`  ${key} = ${value}\n`);
    }
    process.stdout.write(`Done in ${((Date.now() - started) / 1000).toFixed(0)}s\n`);
    return 0;
  } catch (error) {
    throw toCloudError(error, 'deploy', app);
  }
}
