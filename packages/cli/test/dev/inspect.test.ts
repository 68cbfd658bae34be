import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { expect } from 'chai';
import { childEnv, childExecArgv } from '../../src/dev/debugger/index.js';
import { eventually, FW_BIN, json } from './helpers.js';
import { smallProject } from './small-project.js';
import { spawn } from 'node:child_process';

describe('fw dev --inspect', function () {
  this.timeout(120_000);

  it('children get the parent\'s Node flags and NODE_OPTIONS without the inspector\'s', () => {
    expect(childExecArgv(['--inspect=9229', '--max-old-space-size=512', '--inspect-brk', '--inspect-port', '9230', '--import', 'tsx'])).to.deep.equal(['--max-old-space-size=512', '--import', 'tsx']);
    expect(childEnv({ NODE_OPTIONS: '--inspect=0 --enable-source-maps', PATH: '/bin' })).to.deep.equal({ NODE_OPTIONS: '--enable-source-maps', PATH: '/bin' });
    expect(childEnv({ NODE_OPTIONS: '--inspect', PATH: '/bin' })).to.deep.equal({ PATH: '/bin' });
  });

  it('opens a debugger on the fw dev process (handlers are its worker threads); the PGlite child does not inherit it', async function () {
    if (!fs.existsSync('/proc/self/environ')) this.skip(); // reads children's command lines from /proc (Linux)
    const dir = smallProject({ 'src/routes/hello/get.ts': `export const main = async () => ({ hi: true });\n` }, `{ auth: {}, databases: [{ id: 'main' }] }`);
    // NODE_OPTIONS as a developer might set it: the engine's child must not get it either.
    const child = spawn(process.execPath, [FW_BIN, 'dev', '--port', '0', '--no-typecheck', '--inspect=0', '--engine', 'databases=embedded'], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=0`.trim() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const url = await eventually(async () => /serving at (http:\/\/\S+)/.exec(output)?.[1], 90_000, `fw dev serving:\n${output}`);
      const ws = /debugger listening at (ws:\/\/\S+)/.exec(output)?.[1];
      expect(ws, output).to.be.a('string');
      const targets = (await json(await fetch(`http://${new URL(ws!).host}/json/list`))) as { webSocketDebuggerUrl: string }[];
      expect(targets.map((t) => t.webSocketDebuggerUrl)).to.include(ws);
      expect((await fetch(`${url}/hello`)).status).to.equal(200);
      const children = execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean);
      expect(children, 'the PGlite child').to.not.be.empty;
      let nodeChildren = 0;
      for (const pid of children) {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const nodeOptions = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((v) => v.startsWith('NODE_OPTIONS=')) ?? '';
        // Only Node children read NODE_OPTIONS (esbuild's service is a Go binary that inherits the environment as is).
        if (!/node$/.test(cmdline[0] ?? '')) continue;
        nodeChildren++;
        expect(cmdline.join(' ')).to.not.contain('--inspect');
        expect(nodeOptions).to.not.contain('--inspect');
      }
      expect(nodeChildren, 'the PGlite child').to.be.greaterThan(0);
      expect(output).to.not.match(/Starting inspector on .* failed/);
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
