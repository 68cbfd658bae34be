import { nextCronTime, parseSchedule, type AppDefinition } from '@framework/core';
import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleEventStream } from './event-stream.js';
import type { RequestRecords } from './request-records.js';
import type { DevProblems } from './dev-problems.js';
import { errorResponse } from '../server/gateway-response.js';
import { send } from '../server/send-response.js';
import { CONSOLE_PAGE_PATH, CONSOLE_PATHS } from './console-paths.js';

/**
 * The page, its script and its style: imported at the console's first request for them (thirteen modules `fw dev`'s
 * start does not need).
 */
let assets: Promise<typeof import('./console-assets.js')> | undefined;
const consoleAssets = () => (assets ??= import('./console-assets.js'));

/** What the console shows about the app besides its units (`GET /_dev/functions`): its declared scopes and roles. */
export interface ConsoleAppSummary {
  readonly project: string;
  readonly stage: string;
  /** Declared scope name to its description. */
  readonly scopes: Readonly<Record<string, string>>;
  /** Declared role name to its scopes (the token picker mints one per role). */
  readonly roles: Readonly<Record<string, readonly string[]>>;
  /** The storage buckets (the Storage tab). */
  readonly buckets: readonly { readonly id: string }[];
}

export function consoleAppSummary(app: AppDefinition): ConsoleAppSummary {
  const security = app.config.security;
  const roles: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  for (const [name, role] of Object.entries(security.roles ?? {})) roles[name] = role.scopes;
  return { project: app.project, stage: app.stage, scopes: { ...security.scopes }, roles: { ...roles }, buckets: app.storage.map((bucket) => ({ id: bucket.id })) };
}

/** A cron as the Crons tab shows it. */
export interface ConsoleCron {
  readonly id: string;
  readonly functionName: string;
  readonly expression: string;
  readonly enabled: boolean;
  /** The next fire time of a `cron(...)` expression after now (UTC, ISO); null for a rate, disabled or never. */
  readonly next: string | null;
  /** A rate's period ("every 300 s", counted from fw dev's start-up), or null. */
  readonly every: string | null;
}

export function consoleCrons(app: AppDefinition, now: Date): ConsoleCron[] {
  return app.crons.map((cron) => {
    const parsed = parseSchedule(cron.schedule);
    const next = cron.enabled && parsed.ok && parsed.kind === 'cron' ? nextCronTime(parsed.cron, now) : undefined;
    const every = parsed.ok && parsed.kind === 'rate' ? `every ${parsed.rateMs / 1000} s from start-up` : null;
    return { id: cron.id, functionName: cron.functionName, expression: cron.expression, enabled: cron.enabled, next: next ? next.toISOString() : null, every };
  });
}

/**
 * The dev console: `GET /_dev` (the page), its script and style sheet, and `GET /_dev/console/app`. Everything is under
 * `/_dev`, so the guard registered before it keeps the page to this machine (loopback or configured Host, no other
 * origin), and the page calls only same-origin dev endpoints. The assets are strings in the CLI's own code: nothing
 * to build or download, and nothing from a CDN.
 */
export function consolePlugin(options: { currentApp(): AppDefinition; events?: ConsoleEventStream; requestRecords?: RequestRecords; problems?: DevProblems }): FastifyPluginAsync {
  return async (server) => {
    server.get(CONSOLE_PATHS.errors, async (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(options.problems?.list() ?? [])),
    );
    server.get<{ Params: { requestId: string } }>(`${CONSOLE_PATHS.requests}/:requestId`, async (request, reply) => {
      const record = options.requestRecords?.get(request.params.requestId);
      if (!record) return send(reply, errorResponse(404, 'NOT_FOUND', `no request ${request.params.requestId} is remembered (the console keeps the last 500)`, request.id));
      return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(record));
    });
    options.events?.serve(server, CONSOLE_PATHS.events);
    server.get(CONSOLE_PAGE_PATH, async (_request, reply) =>
      reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send((await consoleAssets()).consolePage(options.currentApp().project)),
    );
    server.get(CONSOLE_PATHS.script, async (_request, reply) => reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-store').send((await consoleAssets()).CONSOLE_SCRIPT));
    server.get(CONSOLE_PATHS.style, async (_request, reply) => reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-store').send((await consoleAssets()).CONSOLE_STYLE));
    server.get(CONSOLE_PATHS.crons, async (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(consoleCrons(options.currentApp(), new Date()))),
    );
    server.get(CONSOLE_PATHS.app, async (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(consoleAppSummary(options.currentApp()))),
    );
  };
}
