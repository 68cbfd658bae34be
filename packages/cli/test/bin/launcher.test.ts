import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect } from 'chai';
import { REPO, eventually } from '../dev/helpers.js';

/**
 * `fw` on the PATH after `npm ci`: npm links a bin only when its file exists at install time, before any build, so
 * the bin is a committed launcher of the built entry. Then the example's `npm run dev` and `npx fw` work through the
 * workspace's linked bin, as the README says.
 */
const CLI = path.join(REPO, 'packages', 'cli');
const EXAMPLE = path.join(REPO, 'examples', 'tasks-api');
const manifest = JSON.parse(fs.readFileSync(path.join(CLI, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };

/** The shell of a user: no variables of the npm script or mocha run that started this test. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|FW_|INIT_CWD$|NODE_OPTIONS$)/i.test(key)) env[key] = value;
  return env;
}

/** The output of a started `fw dev` (both streams), its exit, and a wait for the URL it serves at that fails with the output if it exits first. */
function watchDev(child: ChildProcess, label: string) {
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  /** The URL fw dev serves at (started with --port 0: a port picked and held by fw dev itself). */
  const serving = () =>
    Promise.race([
      eventually(async () => /serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 90_000, 'fw dev serving'),
      exited.then(() => Promise.reject(new Error(`${label} exited:\n${output}`))),
    ]);
  return { exited, serving, output: () => output };
}

describe('fw launcher (the bin npm links)', function () {
  this.timeout(120_000);

  it('is a committed file outside lib/ (present before any build) and is published', () => {
    const bin = manifest.bin.fw!;
    expect(bin.startsWith('lib/'), `bin ${bin} is built output: npm ci cannot link it`).to.equal(false);
    // Throws when git does not track the file.
    execFileSync('git', ['ls-files', '--error-unmatch', path.posix.join('packages/cli', bin)], { cwd: REPO, stdio: 'pipe' });
    expect(manifest.files).to.include(bin.split('/')[0]);
  });

  it('says to run npm run build, and exits 1, when the CLI is not built', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-launcher-'));
    try {
      fs.mkdirSync(path.join(dir, 'bin'));
      fs.copyFileSync(path.join(CLI, manifest.bin.fw!), path.join(dir, 'bin', 'fw.js'));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const result = spawnSync(process.execPath, [path.join(dir, 'bin', 'fw.js'), '--help'], { encoding: 'utf8' });
      expect(result.status).to.equal(1);
      expect(result.stderr).to.contain('not built').and.to.contain('npm run build');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('which build it runs', () => {
    let dir: string;
    /** A package folder with this launcher, and stand-ins of the compiled entry and of the bundle that say which ran. */
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-launcher-'));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      fs.mkdirSync(path.join(dir, 'bin'));
      fs.copyFileSync(path.join(CLI, manifest.bin.fw!), path.join(dir, 'bin', 'fw.js'));
      fs.mkdirSync(path.join(dir, 'lib', 'bin'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'lib', 'bin', 'fw.js'), "process.stdout.write('compiled');\n");
      fs.mkdirSync(path.join(dir, 'lib', 'bundle'));
      fs.writeFileSync(path.join(dir, 'lib', 'bundle', 'fw.js'), "process.stdout.write('bundled');\n");
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ran = () => spawnSync(process.execPath, [path.join(dir, 'bin', 'fw.js')], { encoding: 'utf8' }).stdout;
    const stamp = (file: string, secondsAgo: number) => {
      const at = new Date(Date.now() - secondsAgo * 1000);
      fs.utimesSync(path.join(dir, file), at, at);
    };

    it('the bundle, when lib/ was not compiled after it was written', () => {
      fs.writeFileSync(path.join(dir, 'lib', '.tsbuildinfo'), '{}');
      stamp('lib/.tsbuildinfo', 20);
      stamp('lib/bundle/fw.js', 10);
      expect(ran()).to.equal('bundled');
    });

    it('the bundle in an installed package (no build info is published)', () => {
      expect(ran()).to.equal('bundled');
    });

    it('lib/bin/fw.js, when TypeScript compiled lib/ after the bundle was written (a build without the bundle step)', () => {
      fs.writeFileSync(path.join(dir, 'lib', '.tsbuildinfo'), '{}');
      stamp('lib/bundle/fw.js', 20);
      stamp('lib/.tsbuildinfo', 10);
      expect(ran()).to.equal('compiled');
    });

    it('lib/bin/fw.js, when there is no bundle', () => {
      fs.rmSync(path.join(dir, 'lib', 'bundle'), { recursive: true });
      expect(ran()).to.equal('compiled');
    });
  });

  it("the bundle (scripts/bundle.mjs) runs the CLI: its version, and fw dev's function threads, database engine and type checker from lib/", async () => {
    execFileSync(process.execPath, [path.join(CLI, 'scripts', 'bundle.mjs')], { stdio: 'pipe' });
    const bundled = path.join(CLI, 'lib', 'bundle', 'fw.js');
    const version = spawnSync(process.execPath, [bundled, '--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).to.equal((JSON.parse(fs.readFileSync(path.join(CLI, 'package.json'), 'utf8')) as { version: string }).version);
    // The bundle holds this package's modules only: packages stay imports, so the app and the CLI share one copy each.
    const texts = fs.readdirSync(path.dirname(bundled)).map((file) => fs.readFileSync(path.join(path.dirname(bundled), file), 'utf8'));
    expect(texts.join('\n')).to.match(/from "@framework\/core(\/[a-z-]+)?"/);
    expect(texts.join('\n')).not.to.match(/function defineApp\(/);
    // The example on PGlite (a child process), a route (a function thread) and the background type check (a thread).
    const child = spawn(process.execPath, [bundled, 'dev', '--port', '0'], { cwd: EXAMPLE, env: { ...userEnv(), FW_DEV_ENGINES: 'databases=embedded' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const dev = watchDev(child, 'fw dev');
    try {
      const url = await dev.serving();
      const health = await fetch(`${url}/health`);
      expect(health.status, dev.output()).to.equal(200);
      // A route that reaches the database: PGlite's process was started from lib/.
      const token = (await (await fetch(`${url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['tasks:read'], sub: 'launcher-test', tenant: 'launcher-tenant' }) })).json()) as { access_token: string };
      const tasks = await fetch(`${url}/tasks`, { headers: { authorization: `Bearer ${token.access_token}` } });
      expect(tasks.status, `${dev.output()}\n${await tasks.clone().text()}`).to.equal(200);
      await eventually(async () => (/typecheck/i.test(dev.output()) ? true : undefined), 60_000, 'the type checker reporting');
      expect(dev.output()).not.to.match(/type checker stopped|Cannot find module|ERR_MODULE_NOT_FOUND/);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await dev.exited;
    }
  });

  it('in examples/tasks-api, `npx fw --help` runs the linked bin', () => {
    const linked = path.join(REPO, 'node_modules', '.bin', 'fw');
    expect(fs.realpathSync(linked), 'node_modules/.bin/fw (re-run npm install after changing the bin)').to.equal(fs.realpathSync(path.join(CLI, manifest.bin.fw!)));
    const result = spawnSync('npx', ['--no-install', 'fw', '--help'], { cwd: EXAMPLE, env: userEnv(), encoding: 'utf8' });
    expect(result.status, result.stderr).to.equal(0);
    expect(result.stdout).to.contain('Usage: fw');
  });

  it('in examples/tasks-api, `npm run dev -- --port 0` serves /health', async () => {
    const child = spawn('npm', ['run', 'dev', '--', '--port', '0'], {
      cwd: EXAMPLE,
      env: { ...userEnv(), FW_DEV_ENGINES: 'databases=embedded' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group: npm → sh → fw all stop together.
      detached: true,
    });
    const dev = watchDev(child, 'npm run dev');
    try {
      const url = await dev.serving();
      const response = await fetch(`${url}/health`);
      expect(response.status, dev.output()).to.equal(200);
      expect(await response.json()).to.include({ status: 'ok' });
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await dev.exited;
    }
  });
});
