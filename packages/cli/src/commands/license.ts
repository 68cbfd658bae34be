import { parseCommandLine, usageError } from '../cli/parse-command-line.js';
import { projectLicenseReport } from '../license/project-license.js';
import { COMMANDS } from './registry.js';

/**
 * `fw license`: what the project's license key (`FW_LICENSE_KEY`, from the environment or `.env`) grants, checked
 * offline by the project's own `@framework-pro/license`. Exits 1 when a `@framework-pro/*` package the project uses
 * is not covered (scripts and CI can gate on it); the packages themselves never stop working over it.
 */
export async function run(argv: string[]): Promise<number> {
  const { positionals } = parseCommandLine(COMMANDS.license!, argv);
  if (positionals.length) throw usageError('license', `unexpected argument "${positionals[0]}" (fw license reads the project in the current folder)`);
  const report = await projectLicenseReport(process.cwd());
  process.stdout.write(`${report.lines.join('\n')}\n`);
  return report.ok ? 0 : 1;
}
