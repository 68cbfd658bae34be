import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppDefinition } from '@framework/core';
import type { DevLogger, PostgresBackend } from '@framework/cli/dev';

/** What a migrated template is made from: the engine's backend and how a fresh (initdb) cluster is laid down. */
export interface MigratedTemplateSource {
  /** `embedded` (PGlite) or `native`: part of the template's name. */
  readonly kind: 'embedded' | 'native';
  /** The fresh template it starts from (its folder name holds the engine's version). */
  readonly base: string;
  /** Lays the fresh template down in a data folder, where the backend looks for its databases. */
  readonly layDown: (dataDir: string) => void;
  readonly backend: PostgresBackend;
  readonly migrate: (databases: AppDefinition['databases'], ports: ReadonlyMap<string, number>, options: { host: string; rootDir: string; log: DevLogger }) => Promise<void>;
}

/**
 * The app's databases with every migration already applied, made once per project, engine and set of migrations
 * (under `.fw/test/`), and copied for each app a test starts: the dev server then finds nothing pending. Migrating
 * the example app takes 0.5-3 s (PGlite crosses a process per statement), a copy of the migrated folder a fraction
 * of that. The name holds a hash of every migration file, so an edited or added migration makes a new template.
 * Returns undefined (the caller migrates as before) when a migration fails: a broken template is never kept.
 */
export async function migratedTemplate(testDir: string, app: AppDefinition, source: MigratedTemplateSource): Promise<string | undefined> {
  const template = path.join(testDir, `migrated-${source.kind}-${migrationsHash(app, source.base)}`);
  if (fs.existsSync(path.join(template, 'databases'))) return template;
  const making = `${template}.${process.pid}-${randomBytes(4).toString('hex')}`;
  fs.mkdirSync(making, { recursive: true });
  let failed = false;
  const log: DevLogger = {
    info: () => undefined,
    warn: () => undefined,
    error: () => {
      failed = true;
    },
  };
  try {
    source.layDown(making);
    const running = await source.backend.start(app.databases, making, '127.0.0.1', log);
    try {
      await source.migrate(app.databases, running.ports, { host: '127.0.0.1', rootDir: app.rootDir, log });
    } finally {
      // A clean stop: the copy must hold a cluster shut down properly (no recovery at the next start).
      await running.stop();
    }
    if (failed) {
      fs.rmSync(making, { recursive: true, force: true });
      return undefined;
    }
    fs.renameSync(making, template);
    removeOlderTemplates(testDir, source.kind, template);
  } catch {
    // Another process made it meanwhile (the rename failed), or the engine did not start: theirs, or none.
    fs.rmSync(making, { recursive: true, force: true });
    return fs.existsSync(path.join(template, 'databases')) ? template : undefined;
  }
  return template;
}

/**
 * The templates of earlier migrations of this engine (30-40 MB each) go once a newer one is in place: a project whose
 * migrations change every day would otherwise fill `.fw/test/`. Half-made ones of live processes (named with a pid
 * suffix) are left alone.
 */
function removeOlderTemplates(testDir: string, kind: string, current: string): void {
  for (const name of fs.readdirSync(testDir)) {
    if (!new RegExp(`^migrated-${kind}-[0-9a-f]{16}$`).test(name) || path.join(testDir, name) === current) continue;
    fs.rmSync(path.join(testDir, name), { recursive: true, force: true });
  }
}

/** Every database's id, name and migration files (names and contents), and the fresh template's name. */
function migrationsHash(app: AppDefinition, base: string): string {
  const hash = createHash('sha256').update(path.basename(base));
  for (const database of app.databases) {
    hash.update(`\0${database.id}\0${database.databaseName}\0`);
    const dir = path.join(app.rootDir, database.migrationsDir);
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort() : [];
    for (const file of files) hash.update(`${file}\0`).update(fs.readFileSync(path.join(dir, file))).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
