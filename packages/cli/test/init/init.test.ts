import { execFile, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { checkTarget, parseInitArgs, projenNewCommand, TEMPLATE_CHOICES } from '../../src/commands/init.js';
import { InitError } from '../../src/errors.js';

const run = promisify(execFile);
const fwBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/fw.js');

function thrown(fn: () => unknown): InitError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(InitError);
    return error as InitError;
  }
  throw new Error('expected an InitError');
}

describe('fw init', () => {
  describe('arguments', () => {
    it('takes a project name, --template (both forms) and --yes', () => {
      expect(parseInitArgs(['my-app', '--template', 'api-queue', '--yes'])).to.deep.equal({ projectName: 'my-app', template: 'api-queue', yes: true });
      expect(parseInitArgs(['--template=fullstack', 'shop-api'])).to.deep.equal({ projectName: 'shop-api', template: 'fullstack', yes: false });
      expect(parseInitArgs(['my-app', '-y', '--registry', 'http://127.0.0.1:4873/'])).to.deep.equal({ projectName: 'my-app', yes: true, registry: 'http://127.0.0.1:4873/' });
    });

    for (const [name, why] of [
      ['My_App', 'capitals and "_"'],
      ['1app', 'a leading digit'],
      ['app-', 'a trailing "-"'],
      ['a', 'one character'],
      ['x'.repeat(33), '33 characters'],
    ]) {
      it(`refuses the project name "${name.length > 12 ? `${name.slice(0, 12)}...` : name}" (${why}), saying what a valid one is`, () => {
        const error = thrown(() => parseInitArgs([name]));
        expect(error.code).to.equal('FW_ERR_INIT_BAD_ARGUMENT');
        expect(error.message).to.contain(`"${name}" is not a valid project name`).and.contain('lowercase letters');
      });
    }

    it('refuses a missing name, an unknown option and a second name', () => {
      expect(thrown(() => parseInitArgs(['--yes'])).message).to.match(/missing project name/);
      expect(thrown(() => parseInitArgs(['my-app', '--force'])).message).to.match(/unknown option --force/);
      expect(thrown(() => parseInitArgs(['my-app', 'other'])).message).to.match(/unexpected argument "other"/);
      expect(thrown(() => parseInitArgs(['my-app', '--template'])).message).to.match(/--template needs a value/);
    });

    it('refuses an unknown template, listing the five', () => {
      const error = thrown(() => parseInitArgs(['my-app', '--template', 'graphql']));
      expect(error.code).to.equal('FW_ERR_INIT_UNKNOWN_TEMPLATE');
      expect(error.message).to.contain('api, api-database, api-queue, api-storage, fullstack');
    });
  });

  describe('target folder', () => {
    let tmp: string;
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-init-'));
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it('accepts a missing or empty folder', () => {
      expect(() => checkTarget(path.join(tmp, 'new-app'))).not.to.throw();
      fs.mkdirSync(path.join(tmp, 'empty-app'));
      expect(() => checkTarget(path.join(tmp, 'empty-app'))).not.to.throw();
    });

    it('refuses a non-empty folder, naming what is in it', () => {
      fs.mkdirSync(path.join(tmp, 'my-app'));
      fs.writeFileSync(path.join(tmp, 'my-app', 'notes.txt'), 'mine');
      const error = thrown(() => checkTarget(path.join(tmp, 'my-app')));
      expect(error.code).to.equal('FW_ERR_INIT_TARGET_NOT_EMPTY');
      expect(error.message).to.contain('is not empty (notes.txt)');
    });

    it('the fw binary exits 1 with the message and leaves the folder untouched', async () => {
      // Given a folder with a user's file
      fs.mkdirSync(path.join(tmp, 'my-app'));
      fs.writeFileSync(path.join(tmp, 'my-app', 'notes.txt'), 'mine');
      // When fw init targets it
      const result = await run(process.execPath, [fwBin, 'init', 'my-app', '--yes'], { cwd: tmp }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      // Then it refuses without a stack, and nothing was written
      expect(result.code).to.equal(1);
      expect(result.stderr).to.contain('is not empty').and.not.contain('    at ');
      expect(fs.readdirSync(path.join(tmp, 'my-app'))).to.deep.equal(['notes.txt']);
    });

    it('the fw binary refuses an invalid name before creating anything', async () => {
      const result = await run(process.execPath, [fwBin, 'init', 'My App', '--yes'], { cwd: tmp }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).to.equal(1);
      expect(result.stderr).to.contain('"My App" is not a valid project name');
      expect(fs.readdirSync(tmp)).to.deep.equal([]);
    });
  });

  describe('creating the project (npx replaced by a recorder: no registry in unit tests)', () => {
    let tmp: string;
    let bin: string;
    let recorded: string;
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-init-run-'));
      bin = path.join(tmp, 'bin');
      recorded = path.join(tmp, 'npx-args.txt');
      fs.mkdirSync(bin);
      // Stands in for npx: records its arguments and working folder, as projen new would run there.
      fs.writeFileSync(path.join(bin, 'npx'), '#!/bin/sh\necho "$(pwd) $*" > "$FW_TEST_NPX_RECORD"\n', { mode: 0o755 });
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
    const env = () => ({ ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, FW_TEST_NPX_RECORD: recorded });

    it('--yes: runs projen new in the new folder with the default template and the scope registry in .npmrc', async () => {
      const result = await run(process.execPath, [fwBin, 'init', 'my-app', '--yes', '--registry', 'http://127.0.0.1:4873/'], { cwd: tmp, env: env() });
      const [cwd, ...args] = fs.readFileSync(recorded, 'utf8').trim().split(' ');
      expect(fs.realpathSync(cwd!)).to.equal(fs.realpathSync(path.join(tmp, 'my-app')));
      expect(args.join(' ')).to.match(/^--yes --package projen@\S+ -- projen new --from @framework\/projen@\S+ --template api --no-git /);
      expect(fs.readFileSync(path.join(tmp, 'my-app', '.npmrc'), 'utf8')).to.equal('@framework:registry=http://127.0.0.1:4873/\n');
      expect(result.stdout).to.contain('Created my-app (api)');
    });

    it('a failing projen new: the error names the template and quotes the underlying error', async () => {
      fs.writeFileSync(path.join(bin, 'npx'), '#!/bin/sh\necho "npm error code E404" >&2\necho "npm error 404 Not Found - GET http://127.0.0.1:4873/@framework%2fprojen" >&2\nexit 1\n', { mode: 0o755 });
      const result = (await run(process.execPath, [fwBin, 'init', 'my-app', '--template', 'api-queue', '--yes', '--registry', 'http://127.0.0.1:4873/'], { cwd: tmp, env: env() }).then(
        () => expect.fail('fw init succeeded'),
        (error: unknown) => error,
      )) as { code: number; stderr: string };
      expect(result.code).to.equal(1);
      const message = result.stderr.slice(result.stderr.indexOf('creating my-app'));
      expect(message).to.contain('creating my-app from the api-queue template failed');
      expect(message).to.contain('npm error 404 Not Found - GET http://127.0.0.1:4873/@framework%2fprojen');
      expect(message).to.contain('http://127.0.0.1:4873/');
    });

    it('in a terminal, asks for the template with an arrow-key list', async function () {
      // A terminal needs a pseudo-terminal: util-linux `script` provides one.
      if (spawnSync('script', ['--version']).status !== 0) this.skip();
      const child = spawn('script', ['-qec', `"${process.execPath}" "${fwBin}" init my-app`, '/dev/null'], { cwd: tmp, env: env() });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
      const waitFor = async (text: string) => {
        for (let i = 0; i < 100 && !output.includes(text); i++) await new Promise((r) => setTimeout(r, 100));
        expect(output, `waiting for ${text}`).to.contain(text);
      };
      // Given the prompt, when the user presses the down arrow then Enter
      await waitFor('Template');
      expect(output).to.contain('API + Database');
      child.stdin.write('\u001b[B');
      await new Promise((r) => setTimeout(r, 300));
      child.stdin.write('\r');
      // Then the second template is created
      expect(await exited).to.equal(0);
      expect(fs.readFileSync(recorded, 'utf8')).to.contain('--template api-database');
    });
  });

  it('documents every error code in the README', () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const code of Object.keys(InitError.CODES)) expect(readme, code).to.match(new RegExp(`\\| \`${code}\` \\|`));
  });

  it('creates the project with projen new from @framework/projen of the same release, pinned projen, no git', () => {
    const command = projenNewCommand({ template: 'api-storage', frameworkVersion: '1.2.3', registry: 'http://127.0.0.1:4873/' });
    expect(command.join(' ')).to.equal(
      'npx --yes --package projen@0.103.25 -- projen new --from @framework/projen@1.2.3 --template api-storage --no-git --projen-version 0.103.25 --framework-registry http://127.0.0.1:4873/',
    );
    expect(TEMPLATE_CHOICES.map((t) => t.value)[0]).to.equal('api');
  });
});
