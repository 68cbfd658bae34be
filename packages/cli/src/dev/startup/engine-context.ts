import { randomUUID } from 'node:crypto';
import type { AppDefinition } from '@framework/core';
import type { ActivityLog } from '../activity/index.js';
import type { DevClock } from '../clock/index.js';
import type { ConsoleEventStream, RequestRecords } from '../console/index.js';
import type { DevContext, DevLogger } from '../engines/engine.js';
import { freePort } from '../engines/ports.js';
import type { Freshness } from '../freshness/index.js';
import { EventText } from '../functions/event-text.js';
import type { FunctionHost } from '../functions/function-host.js';

/** What the engines' context reads from the dev server, which exists only once they have started. */
export interface EngineContextOptions {
  readonly rootDir: string;
  readonly dataDir: string;
  readonly url: string;
  /** The address engines that listen bind. */
  readonly host: string;
  readonly log: DevLogger;
  readonly clock: DevClock;
  readonly functions: FunctionHost;
  readonly requestRecords: RequestRecords;
  readonly consoleEvents: ConsoleEventStream;
  readonly activity?: ActivityLog;
  /** The app model as it is now (the one loaded at start until the server exists). */
  currentApp(): AppDefinition;
  /** The server's freshness check; undefined while starting. */
  freshness(): Freshness | undefined;
}

/**
 * The `DevContext` the engines run units through: every run of a queue consumer, cron or function gets its request id,
 * its line in the activity log, its event and answer in the console's records and its entry on the dev clock.
 */
export function engineContext(options: EngineContextOptions): DevContext {
  const { requestRecords, consoleEvents, activity, clock, functions } = options;
  return {
    rootDir: options.rootDir,
    dataDir: options.dataDir,
    baseUrl: options.url,
    host: options.host,
    log: options.log,
    // Queue consumers and crons also run the code on disk (checked without the per-turn reuse of requests).
    invoke: async (unit, event, invokeOptions) => {
      if (!invokeOptions?.checked) await options.freshness()?.refresh();
      const time = new Date();
      const started = performance.now();
      // Every run gets its request id here, so the console finds its event, outcome and log lines under it.
      const requestId = invokeOptions?.requestId ?? randomUUID();
      requestRecords.event(requestId, EventText.is(event) ? event.json : event);
      const outcome = await functions.invoke(unit, event, { ...invokeOptions, requestId });
      requestRecords.response(requestId, { body: outcome.ok ? JSON.stringify(outcome.value ?? null) : `${outcome.errorType}: ${outcome.errorMessage}` });
      activity?.unitRun(unit, event, outcome, performance.now() - started, time);
      if (unit.kind === 'queue' || unit.kind === 'cron' || unit.kind === 'function') {
        const records = (event as { Records?: unknown } | null)?.Records;
        consoleEvents.publish({
          kind: unit.kind, time: time.toISOString(), id: unit.id, functionName: unit.functionName, ok: outcome.ok, durationMs: performance.now() - started,
          requestId,
          ...(outcome.ok ? {} : { error: `${outcome.errorType}: ${outcome.errorMessage}` }),
          ...(Array.isArray(records) ? { records: records.length } : {}),
        });
      }
      clock.record({ kind: unit.kind, id: unit.id, ok: outcome.ok, ...(outcome.ok ? {} : { error: `${outcome.errorType}: ${outcome.errorMessage}` }) });
      return outcome;
    },
    currentApp: options.currentApp,
    fresh: (file) => {
      const freshness = options.freshness();
      return file === undefined ? freshness?.beforeRequest() : freshness?.beforeInvoke(file);
    },
    freePort: () => freePort(options.host),
    clock,
  };
}
