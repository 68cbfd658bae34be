import { summarizeAssembly } from '../cloud/assembly-summary.js';
import { parseCloudOptions } from '../cloud/cloud-options.js';
import { enableCompileCache } from '../cloud/compile-cache.js';
import { loadCloudApp } from '../cloud/load-cloud-app.js';
import { synthesizeStage } from '../cloud/synthesize-stage.js';
import { APP_TYPES_FILE, writeAppTypes } from '../types/index.js';

/**
 * `fw synth [--stage dev] [--out cdk.out] [--no-checks] [--validation]`: bundles every function, builds the stage's
 * stack and writes the cloud assembly (templates and assets) that `fw deploy` deploys. Needs no credentials, and does
 * not load the deployment toolkit (it synthesizes in process with the toolkit's context).
 */
export async function run(argv: string[]): Promise<number> {
  const options = parseCloudOptions('synth', argv);
  const started = Date.now();
  // Before anything loads aws-cdk-lib: its compiled code from the previous synth (cloud/compile-cache.ts).
  enableCompileCache(process.cwd());
  const app = await loadCloudApp(process.cwd(), options.stage);
  // The app's types as a side product (CI synthesizes before it type-checks); never a reason to fail the synth.
  try {
    writeAppTypes(process.cwd(), app);
  } catch (error) {
    process.stderr.write(`Could not write ${APP_TYPES_FILE}: ${(error as Error).message}\n`);
  }
  process.stderr.write(`Synthesizing ${app.project} stage ${app.stage} (preset ${app.config.preset}, ${app.units.length} functions)...\n`);
  const directory = await synthesizeStage(app, options);
  for (const stack of summarizeAssembly(directory)) process.stdout.write(`  ${stack.name}: ${stack.resources} resources (${stack.templateFile})\n`);
  process.stdout.write(`Cloud assembly written to ${directory} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  return 0;
}
