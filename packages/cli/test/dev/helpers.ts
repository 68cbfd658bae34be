import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run from packages/cli). */
export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
/** The `fw` executable npm links (the launcher of the bundled CLI, see bin/fw.js): what users run. */
export const FW_BIN = path.join(REPO, 'packages', 'cli', 'bin', 'fw.js');

/**
 * A copy of examples/tasks-api in a temporary folder (so tests may edit it), with `node_modules` linked to the
 * repository's and any extra files written in. Readable by others, so a native postgres running as another user
 * reaches its `.fw/`.
 */
export function copyExample(extraFiles: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dev-test-'));
  fs.chmodSync(dir, 0o755);
  fs.cpSync(path.join(REPO, 'examples', 'tasks-api'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw)$/.test(src) });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const [file, text] of Object.entries(extraFiles)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

export interface RunningDev {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `fw dev --port 0` in `dir` as a child process; resolves once it prints its URL. */
export async function startDev(dir: string, args: readonly string[] = []): Promise<RunningDev> {
  const child = spawn(process.execPath, [FW_BIN, 'dev', '--port', '0', '--no-typecheck', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const m = /serving at (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`fw dev exited with ${code}:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function json(response: Response): Promise<any> {
  return JSON.parse(await response.text());
}

/**
 * Mints a token from the dev server, for a user of the tenant `acme` (the example app is multi-tenant; other apps
 * ignore the claim).
 */
export async function token(url: string, scopes: readonly string[], sub = 'user-1', tenant = 'acme'): Promise<string> {
  const response = await fetch(`${url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes, sub, tenant }) });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
  return (await json(response)).access_token as string;
}

/** A request sent exactly as given (no URL normalization, repeated headers kept apart), unlike fetch. */
export function rawRequest(url: string, options: { method?: string; path: string; headers?: Record<string, string | string[]>; body?: string | Buffer }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}
