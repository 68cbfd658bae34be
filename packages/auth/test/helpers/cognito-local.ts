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

/** How many ports are tried when the one found free was taken before cognito-local bound it. */
const BIND_ATTEMPTS = 3;

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
    // The port is found free, closed, then bound by cognito-local a moment later: another server of the run can take
    // it in between. cognito-local then exits (EADDRINUSE), and another port is tried.
    for (let attempt = 1; ; attempt++) {
      try {
        return await CognitoLocal.startOn(await freePort());
      } catch (error) {
        if (attempt >= BIND_ATTEMPTS || !/EADDRINUSE/.test((error as Error).message)) throw error;
      }
    }
  }

  private static async startOn(port: number): Promise<CognitoLocal> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cognito-local-'));
    const bin = createRequire(import.meta.url).resolve('cognito-local/lib/bin/start.js');
    const child = spawn(process.execPath, [bin], { cwd: dir, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (output.includes('Cognito Local running')) resolve();
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`cognito-local exited (${code}) before it listened:\n${output}`)));
      });
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }
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
