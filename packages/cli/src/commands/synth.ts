import { summarizeAssembly } from '../cloud/assembly-summary.js';
import { cloudContext, loadCloudApp, toCloudError } from '../cloud/cloud-app.js';
import { parseCloudOptions } from '../cloud/cloud-options.js';

/**
 * `fw synth [--stage dev] [--out cdk.out] [--no-checks]`: bundles every function, builds the stage's stack and writes
 * the cloud assembly (templates and assets) that `fw deploy` deploys. Needs no credentials.
 */
export async function run(argv: string[]): Promise<number> {
  const options = parseCloudOptions('synth', argv);
  const started = Date.now();
  const app = await loadCloudApp(process.cwd(), options.stage);
  const ctx = await cloudContext(app, options);
  ctx.out.write(`Synthesizing ${app.project} stage ${app.stage} (preset ${app.config.preset}, ${app.units.length} functions)...\n`);
  try {
    const assembly = await ctx.toolkit.synth(ctx.source, { stacks: ctx.stacks });
    const directory = assembly.cloudAssembly.directory;
    for (const stack of summarizeAssembly(directory)) process.stdout.write(`  ${stack.name}: ${stack.resources} resources (${stack.templateFile})\n`);
    process.stdout.write(`Cloud assembly written to ${directory} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
    await assembly.dispose();
    return 0;
  } catch (error) {
    throw toCloudError(error, 'synth', app);
  }
}
