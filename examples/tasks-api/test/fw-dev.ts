import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const APP_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** A running `fw dev` of this app: its URL, a token from its local issuer, and how to stop it. */
export interface FwDev {
  readonly url: string;
  /** An access token of the dev issuer for `sub` of `tenant` with these scopes (`POST /_dev/token`). */
  token(sub: string, scopes: readonly string[], tenant?: string): Promise<string>;
  /** Everything fw dev printed so far (stdout and stderr), the function logs included. */
  output(): string;
  stop(): Promise<void>;
}

/** The nearest `node_modules` above the app that has the `fw` command (the app's own, or a workspace's). */
function nodeModules(): string {
  for (let dir = APP_DIR; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', '@framework', 'cli', 'package.json'))) return path.join(dir, 'node_modules');
    if (path.dirname(dir) === dir) throw new Error('@framework/cli is not installed: run npm install');
  }
}

/**
 * Starts `fw dev --port 0` on a copy of this app in a temporary folder, so a test run never shares `.fw/` (the
 * database, the queues, the uploads) with the `fw dev` you work with. Resolves once every route is loaded.
 */
export async function startFwDev(options: { readonly quiet?: boolean } = {}): Promise<FwDev> {
  const modules = nodeModules();
  const dir = mkdtempSync(path.join(tmpdir(), 'tasks-api-test-'));
  // Readable by others: a native postgres running as another user keeps its data under `.fw/`.
  chmodSync(dir, 0o755);
  cpSync(APP_DIR, dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.fw|test)$/.test(src) });
  symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
  const fw = path.join(modules, '@framework', 'cli', 'bin', 'fw.js');
  const child = spawn(process.execPath, [fw, 'dev', '--port', '0', '--no-typecheck', ...(options.quiet === false ? [] : ['--quiet'])], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = (data: Buffer) => {
      output += data.toString('utf8');
      const served = /serving at (http:\/\/\S+)/.exec(output);
      // The start-up table (after every route loaded once) ends with the dev endpoints.
      if (served && output.includes('Dev endpoints:')) resolve(served[1]!);
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then(() => reject(new Error(`fw dev exited before serving:\n${output}`)));
  });
  return {
    url,
    async token(sub, scopes, tenant) {
      const response = await fetch(`${url}/_dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub, scopes, tenant }) });
      if (!response.ok) throw new Error(`POST /_dev/token answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
