import * as readline from 'node:readline/promises';
import { stackName } from '@framework/core';
import { cloudContext, loadCloudApp, toCloudError } from '../cloud/cloud-app.js';
import { parseCloudOptions } from '../cloud/cloud-options.js';
import { requireCredentials } from '../cloud/credentials.js';
import { CloudCommandError } from '../errors.js';

/**
 * `fw destroy [--stage dev] [--yes]`: deletes the stage's stack. Asks first (or needs `--yes` without a terminal);
 * databases, buckets and tables of presets that retain data stay behind, as the preset's removal policy says.
 */
export async function run(argv: string[]): Promise<number> {
  const options = parseCloudOptions('destroy', argv);
  const app = await loadCloudApp(process.cwd(), options.stage);
  const name = stackName(app.project, app.stage);
  if (!options.yes) {
    if (!process.stdin.isTTY) {
      throw new CloudCommandError('FW_ERR_CLOUD_NOT_CONFIRMED', `fw destroy deletes stack ${name} and everything in it; there is no terminal to confirm: pass --yes`);
    }
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question(`Delete stack ${name} (stage ${app.stage}, removal policy "${app.config.settings.resources.removalPolicy}")? [y/N] `);
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stderr.write('Nothing deleted.\n');
      return 1;
    }
  }
  const ctx = await cloudContext(app, options);
  await requireCredentials(ctx.ioHost, 'destroy', app.stage, app.region);
  try {
    await ctx.toolkit.destroy(ctx.source, { stacks: ctx.stacks });
    process.stdout.write(`${name}: destroyed\n`);
    return 0;
  } catch (error) {
    throw toCloudError(error, 'destroy', app);
  }
}
