import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { copyExample } from './helpers/example-copy.js';

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds (a process dies a moment after its parent's exit), at most `ms`. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const onPath = (name: string) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, name)));

describe('a test process that exits without stop()', () => {
  it('leaves no port, no postgres and no data folder behind (native PostgreSQL)', async function () {
    if (!onPath('postgres') || !onPath('initdb')) this.skip(); // the native engine needs postgres and initdb on PATH
    const example = copyExample();
    try {
      const fixture = fileURLToPath(new URL('./fixtures/exit-without-stop.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', fixture, example.dir, 'native'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, output).to.equal(0);
      const started = JSON.parse(output.split('\n').find((l) => l.startsWith('{'))!) as { url: string; dbPort: number; postgresPid: number; databases: string };
      expect(started.postgresPid, 'the native server ran').to.be.greaterThan(0);
      expect(await eventually(() => !alive(started.postgresPid)), 'postgres is gone').to.equal(true);
      expect(await eventually(async () => !(await listening(started.dbPort))), 'its port is closed').to.equal(true);
      expect(await listening(Number(new URL(started.url).port)), 'the app port is closed').to.equal(false);
      // The databases' folder, in memory (a link from the data folder) where the machine has room there, is gone too.
      expect(fs.existsSync(started.databases), started.databases).to.equal(false);
      expect(fs.readdirSync(path.join(example.dir, '.fw', 'test')).filter((f) => !/^((pglite|postgres)-template-|migrated-(embedded|native)-[0-9a-f]{16}$)/.test(f))).to.deep.equal([]);
    } finally {
      example.remove();
    }
  });
});
