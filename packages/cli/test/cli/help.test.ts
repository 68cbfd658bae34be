import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseCommandLine } from '../../src/cli/parse-command-line.js';
import { COMMANDS } from '../../src/commands/registry.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fwSource = path.resolve(here, '..', '..', 'src', 'bin', 'fw.ts');

function fw(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', fwSource, ...args], { cwd: here, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('fw --help, fw <command> --help, --version and usage errors', function () {
  this.timeout(120_000);

  for (const entry of Object.values(COMMANDS)) {
    it(`fw ${entry.name} --help describes every option with its default and exits 0`, () => {
      const result = fw(entry.name, '--help');
      expect(result.status, result.stderr).to.equal(0);
      expect(result.stdout).to.contain(entry.summary).and.contain(`Usage: fw ${entry.name}`);
      for (const option of entry.options) {
        const line = result.stdout.split('\n').find((l) => new RegExp(`^ +(-\\w, )? *--${option.name}\\b`).test(l));
        expect(line, `--${option.name}`).to.be.a('string').and.contain(option.description);
        if (option.default !== undefined) expect(line).to.contain(`(default: ${option.default})`);
        if (option.short) expect(line).to.contain(`-${option.short}, `);
      }
      for (const sub of entry.subcommands ?? []) expect(result.stdout).to.contain(sub.usage);
      expect(result.stdout).to.contain('-h, --help');
    });
  }

  it('-h and fw help <command> print the same help as --help', () => {
    const help = fw('migrate', '--help').stdout;
    expect(fw('migrate', '-h').stdout).to.equal(help);
    expect(fw('help', 'migrate').stdout).to.equal(help);
    // Help wins over the rest of the line, even an option missing its value.
    expect(fw('migrate', 'create', '--db', '--help').stdout).to.equal(help);
  });

  it('fw --help lists every command and every option of each', () => {
    const result = fw('--help');
    expect(result.status).to.equal(0);
    for (const entry of Object.values(COMMANDS)) {
      expect(result.stdout).to.contain(entry.summary);
      for (const option of entry.options) expect(result.stdout, `fw ${entry.name} --${option.name}`).to.match(new RegExp(`fw ${entry.name} .*--${option.name}\\b`));
    }
    expect(result.stdout).to.contain('--version');
  });

  it('fw --version prints the version of the package', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(here, '..', '..', 'package.json'), 'utf8')) as { version: string };
    const result = fw('--version');
    expect(result.status).to.equal(0);
    expect(result.stdout).to.equal(`${pkg.version}\n`);
    expect(fw('-v').stdout).to.equal(`${pkg.version}\n`);
  });

  it('a mistyped command gets "did you mean", exit code 2 and no stack', () => {
    const result = fw('dve');
    expect(result.status).to.equal(2);
    expect(result.stderr).to.equal('fw: unknown command "dve" (did you mean "dev"?). Run "fw --help" for the commands.\n');
  });

  it('a mistyped option gets "did you mean" in the one wording of usage errors, exit code 2', () => {
    const result = fw('synth', '--stag', 'prod');
    expect(result.status).to.equal(2);
    expect(result.stderr).to.equal('fw synth: unknown option --stag (did you mean --stage?). Run "fw synth --help" for its usage.\n');
  });

  it('a value the command refuses points at the same help, exit code 1', () => {
    const result = fw('dev', '--port', '99999');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.equal('--port 99999: expected a port number 0-65535 (0 picks a free one). Run "fw dev --help" for its usage.\n');
  });

  it('checks option names and values against the command table', () => {
    const dev = COMMANDS.dev!;
    expect(parseCommandLine(dev, ['--port=3001', '--engine', 'databases=embedded', '--engine=queues=embedded']).values).to.deep.include({
      port: '3001',
      engine: ['databases=embedded', 'queues=embedded'],
    });
    expect(parseCommandLine(dev, ['-p', '0']).values.port).to.equal('0');
    expect(() => parseCommandLine(dev, ['--port'])).to.throw('fw dev: --port needs a value: --port <port>. Run "fw dev --help" for its usage.').with.property('code', 'FW_ERR_USAGE');
    expect(() => parseCommandLine(dev, ['--stage', '--port', '1'])).to.throw(/--stage needs a value/);
    expect(() => parseCommandLine(COMMANDS.deploy!, ['--bootstrap=yes'])).to.throw(/--bootstrap takes no value/);
    expect(() => parseCommandLine(COMMANDS.init!, ['-x'])).to.throw(/unknown option -x\./);
    expect(parseCommandLine(COMMANDS.g!, ['route', 'a', '--scope', 'x:y']).values.scopes).to.deep.equal(['x:y']);
  });
});
