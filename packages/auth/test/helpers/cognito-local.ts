import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** A free TCP port on 127.0.0.1 (cognito-local takes a port number, not 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * cognito-local (a Cognito user pool emulator) in a child process on 127.0.0.1 and a free port, its state in a
 * temporary folder removed by `stop`.
 */
export class CognitoLocal {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly endpoint: string,
  ) {}

  static async start(): Promise<CognitoLocal> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cognito-local-'));
    const port = await freePort();
    const bin = createRequire(import.meta.url).resolve('cognito-local/lib/bin/start.js');
    const child = spawn(process.execPath, [bin], { cwd: dir, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Cognito Local running')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`cognito-local exited (${code}) before it listened:\n${output}`)));
    });
    return new CognitoLocal(child, dir, `http://127.0.0.1:${port}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
