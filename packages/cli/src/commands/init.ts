import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_NAME } from '@framework/core';
import { InitError } from '../errors.js';
import { packageFile } from '../package-files.js';

/**
 * `fw init <project_name> [--template <t>] [--yes] [--registry <url>]`: creates a project through the same code
 * path as `npx projen new --from @framework/projen` (it runs exactly that, in the new folder), so a project made by
 * either is the same `FrameworkApp`; projen then installs the dependencies.
 */

/** The templates of `@framework/projen` (its `FrameworkTemplate` values), in prompt order; the first is the default. */
export const TEMPLATE_CHOICES: readonly { readonly value: string; readonly name: string; readonly description: string }[] = [
  { value: 'api', name: 'API', description: 'REST API with auth and scoped endpoints' },
  { value: 'api-database', name: 'API + Database', description: 'API with a relational database and migrations' },
  { value: 'api-queue', name: 'API + Queue', description: 'API with a message-queue consumer' },
  { value: 'api-storage', name: 'API + Storage', description: 'API with object storage and file uploads' },
  { value: 'fullstack', name: 'Fullstack', description: 'API + Database + Storage + Queue' },
];

/** projen release the generated projects are created with (the one `@framework/projen` is built against). */
export const PROJEN_VERSION = '0.103.25';

export interface InitOptions {
  readonly projectName: string;
  /** A `TEMPLATE_CHOICES` value. @default - asked, or 'api' with --yes */
  readonly template?: string;
  /** No prompts: default answers. @default false */
  readonly yes: boolean;
  /** Registry of the `@framework` scope, written to the project's `.npmrc`. @default - npm's configured registry */
  readonly registry?: string;
}

/** Parses `fw init`'s arguments; throws `InitError` naming the problem. */
export function parseInitArgs(argv: readonly string[]): InitOptions {
  let projectName: string | undefined;
  let template: string | undefined;
  let registry: string | undefined;
  let yes = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('-')) throw new InitError('FW_ERR_INIT_BAD_ARGUMENT', `${flag} needs a value, e.g. ${flag === '--registry' ? '--registry https://registry.example.com/' : '--template api-database'}`);
      return v;
    };
    if (flag === '--yes' || flag === '-y') yes = true;
    else if (flag === '--template' || flag === '-t') template = value();
    else if (flag === '--registry') registry = value();
    else if (flag.startsWith('-')) throw new InitError('FW_ERR_INIT_BAD_ARGUMENT', `unknown option ${flag}. Usage: fw init <project_name> [--template <t>] [--yes] [--registry <url>]`);
    else if (projectName === undefined) projectName = arg;
    else throw new InitError('FW_ERR_INIT_BAD_ARGUMENT', `unexpected argument "${arg}": fw init takes one project name`);
  }
  if (projectName === undefined) throw new InitError('FW_ERR_INIT_BAD_ARGUMENT', 'missing project name. Usage: fw init <project_name> [--template <t>] [--yes]');
  if (!PROJECT_NAME.test(projectName)) {
    throw new InitError(
      'FW_ERR_INIT_BAD_ARGUMENT',
      `"${projectName}" is not a valid project name: use 2 to 32 lowercase letters, digits or "-", starting with a letter and not ending with "-" (it prefixes every deployed name), e.g. "my-app"`,
    );
  }
  if (template !== undefined && !TEMPLATE_CHOICES.some((t) => t.value === template)) {
    throw new InitError('FW_ERR_INIT_UNKNOWN_TEMPLATE', `unknown template "${template}"; choose one of: ${TEMPLATE_CHOICES.map((t) => t.value).join(', ')}`);
  }
  if (registry !== undefined && !/^https?:\/\/\S+$/.test(registry)) {
    throw new InitError('FW_ERR_INIT_BAD_ARGUMENT', `--registry must be a registry URL such as https://registry.example.com/, got "${registry}"`);
  }
  return { projectName, yes, ...(template !== undefined ? { template } : {}), ...(registry !== undefined ? { registry } : {}) };
}

/** Refuses a target that exists and is not an empty folder. */
export function checkTarget(dir: string): void {
  if (!fs.existsSync(dir)) return;
  if (!fs.statSync(dir).isDirectory()) throw new InitError('FW_ERR_INIT_TARGET_NOT_EMPTY', `${dir} exists and is a file; pick another project name or remove it`);
  const entries = fs.readdirSync(dir);
  if (entries.length > 0) {
    throw new InitError('FW_ERR_INIT_TARGET_NOT_EMPTY', `${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}); fw init only creates new projects. Pick another name or empty the folder`);
  }
}

/** Asks for the template with an arrow-key list (loaded only when a prompt is shown). */
async function promptTemplate(): Promise<string> {
  const { default: select } = await import('@inquirer/select');
  return select({
    message: 'Template',
    choices: TEMPLATE_CHOICES.map((t) => ({ value: t.value, name: t.name, description: t.description })),
    default: TEMPLATE_CHOICES[0]!.value,
  });
}

/** The command that creates the project in the (empty) target folder: projen's own `new`, from our package. */
export function projenNewCommand(options: { readonly template: string; readonly frameworkVersion: string; readonly registry?: string }): string[] {
  return [
    'npx',
    '--yes',
    // Explicit package: under `npx -p @framework/cli fw init`, npm_config_package names the cli for nested npx.
    '--package',
    `projen@${PROJEN_VERSION}`,
    '--',
    'projen',
    'new',
    '--from',
    `@framework/projen@${options.frameworkVersion}`,
    '--template',
    options.template,
    '--no-git',
    // Without it projen new installs projen@latest, which may not satisfy @framework/projen's peer range.
    '--projen-version',
    PROJEN_VERSION,
    ...(options.registry ? ['--framework-registry', options.registry] : []),
  ];
}

function ownVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs `command` with the terminal's output; resolves with its exit code and the last lines of its error output. */
function runCommand(command: readonly string[], cwd: string): Promise<{ code: number; errorTail: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, stdio: ['inherit', 'inherit', 'pipe'], shell: process.platform === 'win32' });
    // Shown as it comes, and kept (its end) for the failure message: the cause must not scroll away under npm's output.
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      errors = (errors + chunk.toString()).slice(-8192);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), errorTail: lastLines(errors, 6) }));
  });
}

/** The last `count` non-empty lines of `text`, without terminal colours. */
function lastLines(text: string, count: number): string {
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  return lines.slice(-count).join('\n');
}

export async function run(argv: string[]): Promise<number> {
  const options = parseInitArgs(argv);
  const dir = path.resolve(process.cwd(), options.projectName);
  checkTarget(dir);
  const template = options.template ?? (options.yes || !process.stdin.isTTY ? TEMPLATE_CHOICES[0]!.value : await promptTemplate());

  fs.mkdirSync(dir, { recursive: true });
  // The scope's registry must be known before projen installs @framework/projen; FrameworkApp then manages .npmrc.
  if (options.registry) fs.writeFileSync(path.join(dir, '.npmrc'), `@framework:registry=${options.registry}\n`);
  const command = projenNewCommand({ template, frameworkVersion: ownVersion(), ...(options.registry ? { registry: options.registry } : {}) });
  process.stdout.write(`Creating ${options.projectName} from the ${template} template...\n`);
  const { code, errorTail } = await runCommand(command, dir);
  if (code !== 0) {
    throw new InitError(
      'FW_ERR_INIT_FAILED',
      `creating ${options.projectName} from the ${template} template failed: ${command.slice(0, 10).join(' ')} exited with ${code}${errorTail ? `, saying:\n${errorTail.replace(/^/gm, '  ')}\n` : ' (see the output above). '}The folder ${dir} was left as is for inspection${options.registry ? `; check that ${options.registry} serves @framework/projen@${ownVersion()} (npm run registry in the framework repository prints the URL)` : ''}`,
    );
  }
  process.stdout.write(
    [
      '',
      `Created ${options.projectName} (${template}). Next:`,
      `  cd ${options.projectName}`,
      '  npx projen dev        # every route, queue and cron on http://localhost:3000',
      '  npm test',
      '  npx projen deploy --stage prod',
      '',
    ].join('\n'),
  );
  return 0;
}
