import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort, startBackground, type Background } from './processes';

/** A local npm registry (verdaccio) on 127.0.0.1: our packages are published to it, everything else is proxied. */
export interface LocalRegistry {
  readonly url: string;
  /** An auth token of a user created on this registry (for `npm publish`). */
  readonly token: string;
  stop(): Promise<void>;
}

/** Where verdaccio comes from, where it keeps its files, what it proxies, and its environment. */
export interface LocalRegistryOptions {
  readonly verdaccioBin: string;
  readonly workDir: string;
  readonly uplink: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Starts verdaccio from the repository's devDependencies with a throwaway storage, proxying to `uplink` (the
 * registry npm is configured with). `@framework/*` and `@framework-pro/*` are never proxied: only what the test
 * publishes exists under those scopes.
 */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry> {
  // The port is found free, closed, then bound by verdaccio a moment later: another server can take it in between.
  // verdaccio then exits (EADDRINUSE), and another port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), options);
    } catch (error) {
      if (attempt >= BIND_ATTEMPTS || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

/** How many ports are tried when the one found free was taken before verdaccio bound it. */
const BIND_ATTEMPTS = 3;

async function startOn(port: number, options: LocalRegistryOptions): Promise<LocalRegistry> {
  const url = `http://127.0.0.1:${port}/`;
  const storage = path.join(options.workDir, 'storage');
  fs.mkdirSync(storage, { recursive: true });
  const config = path.join(options.workDir, 'config.yaml');
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(storage)}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(path.join(options.workDir, 'htpasswd'))}`,
      '    max_users: 10',
      'uplinks:',
      '  upstream:',
      `    url: ${JSON.stringify(options.uplink)}`,
      '    timeout: 120s',
      '    max_fails: 5',
      '    cache: false',
      'packages:',
      "  '@framework/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '@framework-pro/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    proxy: upstream',
      'max_body_size: 500mb',
      'server:',
      '  keepAliveTimeout: 60',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const server: Background = startBackground(process.execPath, [options.verdaccioBin, '--config', config, '--listen', `127.0.0.1:${port}`], { cwd: options.workDir, env: options.env });
  try {
    await waitUntilUp(`${url}-/ping`, server, 60_000);
    const token = await createUser(url);
    return { url, token, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function waitUntilUp(pingUrl: string, server: Background, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      // Bounded: a server of another kind that took the port may accept and never answer.
      const res = await fetch(pingUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (server.exited()) throw new Error(`verdaccio exited before it answered ${pingUrl}:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`verdaccio did not answer ${pingUrl} within ${timeoutMs} ms:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Registers a user the way `npm adduser` does and returns its token. */
async function createUser(url: string): Promise<string> {
  const name = 'e2e-publisher';
  const res = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password: 'e2e-publisher-password', type: 'user', roles: [], date: new Date().toISOString() }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token) throw new Error(`verdaccio refused to create the publishing user: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}
