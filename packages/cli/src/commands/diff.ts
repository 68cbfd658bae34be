import { cloudContext, loadCloudApp, toCloudError } from '../cloud/cloud-app.js';
import { parseCloudOptions } from '../cloud/cloud-options.js';
import { requireCredentials } from '../cloud/credentials.js';

/** `fw diff [--stage dev]`: what `fw deploy` would change in the deployed stage (resources, IAM, security groups). */
export async function run(argv: string[]): Promise<number> {
  const options = parseCloudOptions('diff', argv);
  const app = await loadCloudApp(process.cwd(), options.stage);
  const ctx = await cloudContext(app, options);
  await requireCredentials(ctx.ioHost, 'diff', app.stage, app.region);
  try {
    const diffs = await ctx.toolkit.diff(ctx.source, { stacks: ctx.stacks });
    const changed = Object.values(diffs).filter((d) => !d.isEmpty).length;
    process.stdout.write(changed ? `${changed} stack(s) would change\n` : 'No changes\n');
    return 0;
  } catch (error) {
    throw toCloudError(error, 'diff', app);
  }
}
