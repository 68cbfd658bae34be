import type { AppDefinition } from '@framework/core';
import { DevServerError } from '../../errors.js';
import { embeddedBilling } from './billing.js';
import { embeddedCaches } from './caches.js';
import { embeddedDatabases, nativeDatabases } from './databases.js';
import type { EngineFactory, EngineIntent, EngineKind } from './engine.js';
import { persistentIdempotency } from './idempotency.js';
import { embeddedInbox } from './notifications.js';
import { embeddedQueues } from './queues.js';
import { embeddedSchedules } from './schedules.js';
import { embeddedStorage } from './storage.js';
import { embeddedWs } from './ws-factory.js';
import type { applyPendingMigrations as ApplyPendingMigrations } from './database-migrations.js';

export * from './engine.js';
export { EmbeddedQueueEngine, LocalQueue, type DeadLetter, type LocalMessage } from './queues.js';
export { EmbeddedScheduler } from './schedules.js';
export { PostgresEngine } from './databases.js';
// Type only: the engine's module loads when an app declares `ws` (see ws-factory.ts).
export type { EmbeddedWsEngine } from './ws.js';
export { EmbeddedInboxEngine } from './notifications.js';
export { findOnPath, freePort } from './ports.js';
export { postgresUser, pgliteBackend, nativeBackend, type PostgresBackend, type RunningPostgres } from './postgres-backends.js';

/**
 * Applies each database's pending migrations as `fw dev` does at start (for a test harness that prepares a migrated
 * database template). Loaded on first call: `@framework/data` stays out of the start of an app without a database.
 */
export async function applyPendingMigrations(...args: Parameters<typeof ApplyPendingMigrations>): Promise<void> {
  const { applyPendingMigrations: apply } = await import('./database-migrations.js');
  return apply(...args);
}

/**
 * The engines of each intent (selection sorts them by kind). Every intent whose outputs core names (`INTENT_OUTPUTS`)
 * must have one: a kind added to core without its engine does not compile here (`auth` is served by the dev server
 * itself, its local issuer). To add one: a file per intent in this folder exporting an `EngineFactory`, and its entry.
 */
export const ENGINES_BY_INTENT: { readonly [I in Exclude<EngineIntent, 'auth'>]: readonly [EngineFactory, ...EngineFactory[]] } = {
  databases: [nativeDatabases, embeddedDatabases],
  queues: [embeddedQueues],
  schedules: [embeddedSchedules],
  caches: [embeddedCaches],
  idempotency: [persistentIdempotency],
  storage: [embeddedStorage],
  ws: [embeddedWs],
  notifications: [embeddedInbox],
  billing: [embeddedBilling],
};

/** Every engine `fw dev` knows, any order (selection sorts them). */
export const ENGINE_FACTORIES: readonly EngineFactory[] = Object.values(ENGINES_BY_INTENT).flat();

/**
 * The order engines are tried in when the user names none: a real server binary first (closest to the deployed
 * service), the embedded engine last (always available, nothing to install).
 */
export const ENGINE_ORDER: readonly EngineKind[] = ['native', 'embedded'];

/** The user's choice per intent (`--engine databases=embedded`, or `FW_DEV_ENGINES=databases=embedded,...`). */
export type EnginePreferences = Partial<Record<EngineIntent, EngineKind>>;

/** Parses `databases=embedded,queues=embedded`. */
export function parseEnginePreferences(text: string): EnginePreferences {
  const preferences: Record<string, EngineKind> = {};
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [intent, kind] = item.split('=');
    if (!intent || !kind || !(ENGINE_ORDER as readonly string[]).includes(kind)) {
      throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `engine choice "${item}": expected <intent>=<${ENGINE_ORDER.join('|')}>, e.g. databases=embedded`);
    }
    preferences[intent] = kind as EngineKind;
  }
  return preferences as EnginePreferences;
}

/** Picks one engine per intent the app needs: the named kind, else the first available in `ENGINE_ORDER`. */
export async function selectEngines(app: AppDefinition, preferences: EnginePreferences = {}, factories: readonly EngineFactory[] = ENGINE_FACTORIES): Promise<EngineFactory[]> {
  const byIntent = new Map<EngineIntent, EngineFactory[]>();
  for (const factory of factories) {
    if (!factory.isNeeded(app)) continue;
    byIntent.set(factory.intent, [...(byIntent.get(factory.intent) ?? []), factory]);
  }
  for (const intent of Object.keys(preferences)) {
    if (!factories.some((f) => f.intent === intent)) {
      throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `no local engine serves "${intent}"; intents with engines: ${[...new Set(factories.map((f) => f.intent))].join(', ')}`);
    }
  }
  const chosen: EngineFactory[] = [];
  for (const [intent, candidates] of byIntent) {
    const wanted = preferences[intent];
    const ordered = [...candidates].sort((a, b) => ENGINE_ORDER.indexOf(a.kind) - ENGINE_ORDER.indexOf(b.kind));
    if (wanted) {
      const factory = ordered.find((f) => f.kind === wanted);
      if (!factory) throw new DevServerError('FW_ERR_DEV_NO_ENGINE', `there is no ${wanted} engine for ${intent}; available kinds: ${ordered.map((f) => f.kind).join(', ')}`);
      if (!(await factory.isAvailable(app))) throw new DevServerError('FW_ERR_DEV_NO_ENGINE', `the ${wanted} engine for ${intent} (${factory.label}) cannot run on this machine; pick another with --engine ${intent}=embedded`);
      chosen.push(factory);
      continue;
    }
    let picked: EngineFactory | undefined;
    for (const factory of ordered) {
      if (await factory.isAvailable(app)) {
        picked = factory;
        break;
      }
    }
    if (!picked) throw new DevServerError('FW_ERR_DEV_NO_ENGINE', `no local engine for ${intent} can run on this machine`);
    chosen.push(picked);
  }
  return chosen;
}
