import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Who postgres runs as (the `postgres` user when the tests run as root), as the dev server's native engine decides. */
export type PostgresUser = { uid: number; gid: number } | undefined;

/**
 * A PostgreSQL cluster fresh from `initdb` (what the native engine would create on first use), made once per project
 * and `initdb` binary under `.fw/test/`, and copied for each app a test starts: `initdb` takes seconds, a copy of its
 * ~40 MB a fraction of one. Made in a folder of its own and renamed into place (test processes side by side).
 */
export async function postgresTemplate(testDir: string, initdb: string, user: PostgresUser): Promise<string> {
  const binary = createHash('sha256').update(fs.realpathSync(initdb)).digest('hex').slice(0, 12);
  const template = path.join(testDir, `postgres-template-${binary}`);
  if (fs.existsSync(path.join(template, 'PG_VERSION'))) return template;
  const making = `${template}.${process.pid}-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(testDir, { recursive: true });
  // postgres, running as another user, must get through our folders to its own.
  if (user) for (const dir of [path.dirname(testDir), testDir]) fs.chmodSync(dir, fs.statSync(dir).mode | 0o011);
  fs.mkdirSync(making, { mode: 0o700 });
  if (user) fs.chownSync(making, user.uid, user.gid);
  await run(initdb, ['-D', making, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], user);
  try {
    fs.renameSync(making, template);
  } catch {
    fs.rmSync(making, { recursive: true, force: true });
  }
  return template;
}

/** Gives the app's native engine a copy of the template where it looks for its cluster (it then skips `initdb`). */
export function copyPostgresTemplate(template: string, dataDir: string, user: PostgresUser): void {
  const target = path.join(dataDir, 'databases', 'native');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(template, target, { recursive: true });
  fs.chmodSync(target, 0o700);
  if (user) chownTree(target, user);
}

function chownTree(dir: string, user: { uid: number; gid: number }): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(file, user);
    else fs.chownSync(file, user.uid, user.gid);
  }
}

function run(command: string, args: string[], user: PostgresUser): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}) });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`))));
  });
}
