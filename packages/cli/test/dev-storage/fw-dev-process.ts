import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface FwDevProcess {
  readonly url: string;
  /** Everything it printed so far (for assertion messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `fw dev --port 0` (the built CLI) in `rootDir` as its own Node process, as a user would, and resolves once it
 * serves and has loaded every handler (the start-up table is printed after that). Its own process, not in-process:
 * the test runner's TypeScript loader would be inherited by the dev server's function worker threads.
 */
export async function startFwDev(rootDir: string, timeoutMs = 60_000): Promise<FwDevProcess> {
  const cli = fileURLToPath(new URL('../../bin/fw.js', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [cli, 'dev', '--port', '0', '--no-typecheck'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fw dev did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const check = () => {
      const served = /\[fw\] serving at (http:\/\/\S+)/.exec(output);
      if (served && output.includes('Dev endpoints:')) {
        clearTimeout(timer);
        resolve(served[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fw dev exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
