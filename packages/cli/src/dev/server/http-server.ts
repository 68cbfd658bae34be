import { randomUUID } from 'node:crypto';
import { DEV_OAUTH_PATHS, DEV_PATHS, type AppDefinition } from '@framework/core';
import type { LocalInbox } from '@framework/notify/local';
import type { FastifyInstance, FastifyListenOptions, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DevServerError } from '../../errors.js';
import type { ActivityLog } from '../activity/index.js';
import type { PortReservation } from '../engines/ports.js';
import { apiDocsPlugin, type DevOpenApi } from '../api-docs/index.js';
import { CONSOLE_PATHS, consolePlugin, type ConsoleEventStream, type DevProblems, type RequestRecords } from '../console/index.js';
import { issuerPlugin } from '../auth/issuer-plugin.js';
import type { LocalIssuer } from '../auth/local-issuer.js';
import { oauthPlugin } from '../auth/oauth/oauth-plugin.js';
import { LocalUserAdmin } from '../auth/local-user-admin.js';
import { userAdminPlugin } from '../auth/user-admin-plugin.js';
import type { UserStore } from '../auth/user-store.js';
import type { DevClock } from '../clock/index.js';
import type { DevLogger, InvokeOptions, InvokeOutcome } from '../engines/engine.js';
import type { Freshness } from '../freshness/index.js';
import type { FunctionHost } from '../functions/function-host.js';
import { DEV_PATH_PREFIX, devEndpointGuard, isDevPath } from './dev-endpoint-guard.js';
import { devEndpointsPlugin } from './dev-endpoints.js';
import { clientErrorAnswer, codeForStatus, frameworkErrorAnswer, isClientAbort, notFoundAnswer } from './fastify-answers.js';
import { gatewayAnswer } from './gateway-answer.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { errorResponse } from './gateway-response.js';
import { send } from './send-response.js';

/** The HTTP API's request payload limit: 10 MB. */
export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;
/** Fastify's own cap, above which it cuts the connection (engines such as storage stream larger uploads). */
const MAX_STREAMED_BYTES = 5 * 1024 * 1024 * 1024;

/** The function that served a request (for its line in the activity log). */
export const servedBy = new WeakMap<FastifyRequest, string>();

/** Cognito's default invitation message (a pool without a custom one): its sender, subject and text. */
const COGNITO_INVITATION = {
  from: 'no-reply@verificationemail.com',
  subject: 'Your temporary password',
  text: (username: string, password: string) => `Your username is ${username} and temporary password is ${password}.`,
};

/** Cognito's default verification email (the pool's `autoVerify: email`), sent when a user signs up or resets their password. */
const COGNITO_VERIFICATION = {
  from: 'no-reply@verificationemail.com',
  subject: 'Your verification code',
  text: (code: string) => `Your verification code is ${code}.`,
};

/** What the HTTP side of `fw dev` is wired to: the parts started before it, and the dev server once it exists. */
export interface HttpWiring {
  /** The host the server listens on (the `/_dev` guard admits it besides loopback). */
  readonly listenHost: string;
  readonly log: DevLogger;
  /** The engines' clock: invocations through `/_dev/invoke` count as its work and are in its trace. @default - none */
  readonly clock?: DevClock;
  /** @default - no activity lines */
  readonly activity?: ActivityLog;
  /** The dev console's live stream (`GET /_dev/events`). @default - no stream */
  readonly consoleEvents?: ConsoleEventStream;
  /** The console's per-request event, answer and log lines. @default - none kept */
  readonly requestRecords?: RequestRecords;
  /** What is broken right now (the console's banner and Errors tab). @default - none */
  readonly problems?: DevProblems;
  readonly issuer: LocalIssuer;
  /** The dev issuer's users (`.fw/dev/auth/users.json`), who sign in on its login page. */
  readonly users: UserStore;
  /**
   * Settles once the stage config's users are seeded (their passwords hashed): the sign-in, token and user endpoints
   * wait for it; the app's routes do not. @default - seeded already
   */
  readonly usersSeeded?: Promise<unknown>;
  /** This run's secret of the user admin endpoint (`FW_DEV_AUTH_TOKEN`, which functions get). */
  readonly devAuthToken: string;
  /** The local inbox, when the app sends notifications (its engine runs): invitations land there too. @default - none */
  readonly inbox?: () => Pick<LocalInbox, 'receiveEmail'> | undefined;
  readonly host: FunctionHost;
  /** The engines' own routes. */
  readonly enginePlugins: readonly FastifyPluginAsync[];
  /** Engines still getting ready (named in the 503 ENGINE_NOT_READY of what waited for them in vain). */
  readonly notReady: ReadonlySet<string>;
  /** Resolves true once every engine is ready, false when the start-up's wait for them ran out first. */
  untilEnginesReady(): Promise<boolean>;
  currentApp(): AppDefinition;
  /** The dev server's freshness check (undefined until the server exists: nothing to refresh yet). */
  freshness(): Freshness | undefined;
  /** The app's OpenAPI document (`/_dev/openapi.json`, `/_dev/docs`). */
  readonly openApi: DevOpenApi;
  /** Serves a request to a route of the app (every path that no engine or dev endpoint took). */
  serveRoute(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/**
 * The gateway's Fastify instance, before anything is registered on it. Fastify is imported here, on first call, not
 * when `fw dev` loads: its few hundred ms of module loading then run while the engines, the spare worker threads and
 * esbuild boot (`DevServer.start` calls this after starting them).
 */
export async function createHttpServer(log: DevLogger): Promise<FastifyInstance> {
  const { default: Fastify } = await import('fastify');
  return Fastify({
    bodyLimit: MAX_STREAMED_BYTES,
    logger: false,
    genReqId: () => randomUUID(),
    return503OnClosing: false,
    // No timer per registered plugin (avvio's 10 s guard against a plugin that never calls back): the dev server's
    // plugins are its own, and the timers cost start-up time.
    pluginTimeout: 0,
    frameworkErrors: frameworkErrorAnswer,
    clientErrorHandler: clientErrorAnswer(log),
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
}

/**
 * Registers, in order: the raw body parser, the error and not-found answers, the `/_dev` guard, the activity log, the
 * freshness check, the token issuer, the dev endpoints, the engines' routes, the not-ready answer, then the app's
 * routes behind everything else.
 */
export async function wireHttpServer(fastify: FastifyInstance, wiring: HttpWiring): Promise<void> {
  const { log, activity, host, notReady } = wiring;
  fastify.removeAllContentTypeParsers();
  // Bodies stay raw (the function parses them, as in the cloud). An oversized body is read to its end and
  // dropped, then answered 413: cutting the connection mid-upload would leave the client without the answer.
  fastify.addContentTypeParser('*', (_request, payload, done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) chunks.push(chunk);
    });
    payload.on('error', (error) => done(error, undefined));
    payload.on('end', () => {
      if (size > BODY_LIMIT_BYTES) done(Object.assign(new Error('body too large'), { statusCode: 413 }), undefined);
      else done(null, Buffer.concat(chunks, size));
    });
  });
  fastify.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, request, reply) => {
    if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      log.warn(`${request.method} ${request.url}: answered 413: the request body is larger than ${BODY_LIMIT_BYTES} bytes, the HTTP API's limit`);
      return send(reply, gatewayAnswer(413, `the request body is larger than the HTTP API's ${BODY_LIMIT_BYTES} bytes`), request.id);
    }
    if (isClientAbort(error, request)) {
      // The client went away mid-request: nobody reads this answer and there is nothing to fix.
      log.info(`${request.method} ${request.url}: the client closed the connection before the request ended (request ${request.id})`);
      return send(reply, errorResponse(400, 'BAD_REQUEST', 'the client closed the connection before the request ended', request.id));
    }
    if (error.statusCode && error.statusCode < 500) return send(reply, errorResponse(error.statusCode, codeForStatus(error.statusCode), error.message, request.id));
    log.error(`${request.method} ${request.url}: ${(error as Error).stack ?? error.message}`);
    return send(reply, errorResponse(500, 'INTERNAL_ERROR', 'the dev server failed to handle the request (see the fw dev console)', request.id));
  });
  // Before any plugin registers its routes, so that every /_dev route (engines' included) inherits it.
  fastify.addHook('onRequest', devEndpointGuard({ listenHost: wiring.listenHost }));
  fastify.setNotFoundHandler(notFoundAnswer(log));
  const consoleEvents = wiring.consoleEvents;
  const requestRecords = wiring.requestRecords;
  if (activity || consoleEvents) {
    // One hook for the terminal's line and the console's live stream: the path, the time and the function once.
    fastify.addHook('onResponse', (request, reply, done) => {
      const url = request.raw.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      const functionName = servedBy.get(request);
      const durationMs = reply.elapsedTime;
      const time = Date.now() - durationMs;
      activity?.request({ time, method: request.method, path, status: reply.statusCode, durationMs, ...(functionName ? { functionName } : {}), requestId: request.id });
      // The console's own calls (and the other dev endpoints) would drown the app's; invocations are the app's.
      if (consoleEvents && !((path === DEV_PATH_PREFIX.slice(0, -1) || path.startsWith(DEV_PATH_PREFIX)) && !path.startsWith(DEV_PATHS.invoke))) {
        consoleEvents.publish({ kind: 'request', time, method: request.method, path, status: reply.statusCode, durationMs, requestId: request.id, ...(functionName ? { functionName } : {}) });
      }
      done();
    });
  }
  if (requestRecords) {
    // The answer of each request the live stream shows (the routes' and /_dev/invoke's), for the Requests tab.
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const url = request.raw.url ?? '/';
      if (isDevPath(url) && !url.startsWith(DEV_PATHS.invoke)) return done(null, payload);
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8', 0, Math.min(payload.length, 65_536)) : '';
      // A payload sent to a function by /_dev/invoke is its event (a route's is recorded when it is built).
      if (url.startsWith(DEV_PATHS.invoke) && !requestRecords.get(request.id)?.event && Buffer.isBuffer(request.body)) requestRecords.event(request.id, request.body.toString('utf8', 0, Math.min(request.body.length, 65_536)));
      requestRecords.httpAnswer(request.id, reply.statusCode, reply.getHeaders(), body);
      done(null, payload);
    });
  }
  // Before a request reaches the app model (then a handler: `beforeInvoke`), a save completed before it is loaded.
  fastify.addHook('onRequest', (request, _reply, done) => {
    const url = request.raw.url ?? '/';
    if (url.startsWith(DEV_PATH_PREFIX) && !url.startsWith(DEV_PATHS.invoke) && !url.startsWith(DEV_PATHS.functions)) return done();
    const pending = wiring.freshness()?.beforeRequest(request.raw);
    if (!pending) return done();
    pending.then(() => done(), done);
  });
  // Seeding hashes passwords (scrypt): serving does not wait for it, the endpoints that read the users do.
  let seeded = wiring.usersSeeded === undefined;
  void wiring.usersSeeded?.then(
    () => (seeded = true),
    () => (seeded = true),
  );
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (seeded) return done();
    const url = request.raw.url ?? '/';
    if (!isDevPath(url) && !url.startsWith('/oauth2/') && !url.startsWith(DEV_OAUTH_PATHS.logout)) return done();
    wiring.usersSeeded!.then(() => done(), () => done());
  });
  await fastify.register(issuerPlugin(wiring.issuer, () => wiring.currentApp()));
  await fastify.register(
    oauthPlugin(wiring.issuer, wiring.users, () => wiring.currentApp(), {
      verificationCode: ({ purpose, username, email, code }) => {
        const inbox = wiring.inbox?.();
        const why = purpose === 'sign-up' ? `${email} signed up` : `${username} asked to reset their password`;
        log.info(`${why}: their verification code is ${code}${inbox ? ` (also in the local inbox, as the email Cognito sends to ${email})` : ''}`);
        if (inbox) {
          void inbox
            .receiveEmail({ to: email, from: COGNITO_VERIFICATION.from, subject: COGNITO_VERIFICATION.subject, text: COGNITO_VERIFICATION.text(code) })
            .catch((error: Error) => log.warn(`the verification code of ${username} did not reach the local inbox: ${error.message}`));
        }
      },
    }),
  );
  const userAdmin = new LocalUserAdmin(wiring.users, {
    declaredRoles: () => Object.keys(wiring.currentApp().config.security.roles ?? {}),
    invitation: ({ username, email, tenant, temporaryPassword }) => {
      const inbox = email ? wiring.inbox?.() : undefined;
      log.info(`service.auth invited ${username}${email ? ` <${email}>` : ''}${tenant !== undefined ? ` to tenant ${tenant}` : ''}: ${inbox ? 'the invitation is in the local inbox' : 'fw dev sends no mail'}; their temporary password is ${temporaryPassword}`);
      // Cognito's invitation email, with its default sender, subject and message, where the app's own mail lands.
      if (inbox && email) {
        void inbox
          .receiveEmail({ to: email, from: COGNITO_INVITATION.from, subject: COGNITO_INVITATION.subject, text: COGNITO_INVITATION.text(username, temporaryPassword) })
          .catch((error: Error) => log.warn(`the invitation of ${username} did not reach the local inbox: ${error.message}`));
      }
    },
  });
  await fastify.register(userAdminPlugin(userAdmin, wiring.devAuthToken, { consolePath: CONSOLE_PATHS.auth }));
  await fastify.register(
    devEndpointsPlugin({
      currentApp: () => wiring.currentApp(),
      invoke: async (unit, event, o?: InvokeOptions): Promise<InvokeOutcome> => {
        // A function a cron or a consumer invokes (asynchronously too) is part of the work a test's clock waits for.
        const hold = wiring.clock?.hold();
        try {
          await wiring.freshness()?.beforeInvoke(unit.file);
          const outcome = await host.invoke(unit, event, o);
          wiring.clock?.record({ kind: unit.kind, id: unit.id, ok: outcome.ok, ...(outcome.ok ? {} : { error: `${outcome.errorType}: ${outcome.errorMessage}` }) });
          return outcome;
        } finally {
          hold?.release();
        }
      },
      // GET /_dev/functions loads every route for its scopes: one at a time, behind the start-up's own loads.
      load: async (unit) => {
        await wiring.freshness()?.beforeInvoke(unit.file);
        return host.loadInBackground(unit);
      },
      log,
    }),
  );
  await fastify.register(apiDocsPlugin({ document: () => wiring.openApi.document(), currentApp: () => wiring.currentApp() }));
  await fastify.register(consolePlugin({ currentApp: () => wiring.currentApp(), ...(consoleEvents ? { events: consoleEvents } : {}), ...(requestRecords ? { requestRecords } : {}), ...(wiring.problems ? { problems: wiring.problems } : {}) }));
  for (const plugin of wiring.enginePlugins) await fastify.register(plugin);
  // Invocations through /_dev/invoke wait for the engines (a function may reach the database); past the start-up's
  // wait for them, a clear answer instead of a handler failing. The app's routes decide in serveRoute: only a handler
  // that may open a database connection waits. Callback style: no promise per request once every engine is ready.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (notReady.size === 0) return done();
    const url = request.raw.url ?? '/';
    if (!url.startsWith(DEV_PATHS.invoke)) return done();
    void wiring.untilEnginesReady().then((ready) => {
      if (ready) done();
      else send(reply, engineNotReady(notReady, request.id));
    });
  });
  const handle = (request: FastifyRequest, reply: FastifyReply) => wiring.serveRoute(request, reply);
  fastify.all('/', handle);
  fastify.all('/*', handle);
}

/** The answer to a request that needed an engine still starting after the start-up's wait for it. */
export function engineNotReady(notReady: ReadonlySet<string>, requestId: string) {
  return errorResponse(503, 'ENGINE_NOT_READY', `${[...notReady].join(', ')} is still starting; retry in a moment (see the fw dev console)`, requestId, { 'retry-after': '5' });
}

/** Listens on the socket held since start-up (`PortReservation`), so the port cannot have been taken meanwhile. */
export async function listenHttpServer(fastify: FastifyInstance, host: string, reservation: PortReservation): Promise<void> {
  try {
    // Fastify passes its listen options on to Node.js's `server.listen()`, which listens on `handle` when given one.
    await fastify.listen(reservation.handOver() as FastifyListenOptions);
  } catch (error) {
    throw new DevServerError('FW_ERR_DEV_BAD_ARGUMENT', `cannot listen on ${host}:${reservation.port}: ${(error as Error).message}`, { cause: error });
  }
}

export function portInUseError(host: string, port: number, cause?: unknown): DevServerError {
  return new DevServerError(
    'FW_ERR_DEV_PORT_IN_USE',
    `port ${port} on ${host} is in use (another fw dev, or another server): stop what uses it, or serve on another port with --port <port> (e.g. fw dev --port ${port === 65535 ? 3001 : port + 1}, or --port 0 for any free one)`,
    cause === undefined ? undefined : { cause },
  );
}
