import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';

/** Output and exit code of a finished command. */
export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Milliseconds before the command is killed. @default 600000 */
  readonly timeoutMs?: number;
}

/** Runs a command to its end (no shell), keeping its output for the failure message. */
export function runCommand(command: string, args: readonly string[], options: RunOptions): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => killGroup(child), options.timeoutMs ?? 600_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Like `runCommand`, but a non-zero exit is an error carrying the command's output. */
export async function runOk(command: string, args: readonly string[], options: RunOptions): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited with ${result.code}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`);
  }
  return result;
}

/** A long-running command (a server): its output so far, and a stop that ends its whole process group. */
export interface Background {
  readonly child: ChildProcess;
  output(): string;
  /** Whether the process has ended (its output closed). */
  exited(): boolean;
  /** Resolves with the first match of `pattern` in the output; rejects when the process exits or time runs out. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

export function startBackground(command: string, args: readonly string[], options: RunOptions): Background {
  // Own process group, so `npx projen dev` → projen → fw dev all stop together.
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let exited = false;
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<void>((resolve) => child.on('close', () => ((exited = true), resolve())));
  return {
    child,
    output: () => output,
    exited: () => exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const check = () => {
          const match = pattern.exec(output);
          if (match) return resolve(match);
          if (exited) return reject(new Error(`${command} ${args.join(' ')} exited before printing ${pattern}:\n${tail(output)}`));
          if (Date.now() > deadline) return reject(new Error(`${command} ${args.join(' ')} did not print ${pattern} within ${timeoutMs} ms:\n${tail(output)}`));
          setTimeout(check, 200);
        };
        check();
      });
    },
    async stop() {
      if (exited) return;
      killGroup(child, 'SIGTERM');
      const forced = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
      await exit;
      clearTimeout(forced);
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function tail(text: string, lines = 60): string {
  return text.split('\n').slice(-lines).join('\n');
}
