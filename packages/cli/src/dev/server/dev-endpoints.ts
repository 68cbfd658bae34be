import { randomUUID } from 'node:crypto';
import { DEV_PATHS, type AppDefinition, type FunctionUnit } from '@framework/core';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { DevLogger, InvokeOptions, InvokeOutcome } from '../engines/engine.js';
import { buildScheduledEvent } from '../events/scheduled-event.js';
import { buildSqsEvent } from '../events/sqs-event.js';
import type { LoadOutcome } from '../functions/function-host.js';
import { ASYNC_REQUEST_LIMIT_BYTES, SYNC_REQUEST_LIMIT_BYTES, describeBytes, requestTooLargeMessage } from '../limits/payload-limits.js';
import { sendError } from './send-response.js';

/** What the dev endpoints need from the dev server. */
export interface DevServices {
  currentApp(): AppDefinition;
  invoke(unit: FunctionUnit, event: unknown, options?: InvokeOptions): Promise<InvokeOutcome>;
  load(unit: FunctionUnit): Promise<LoadOutcome>;
  /** Where failures of asynchronous invocations go (nobody waits for their answer). */
  readonly log: DevLogger;
}

/** Names the dev endpoints accept: ids and deployed names, `/`-separated segments of safe characters. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_-]*)*$/;

/** Answers like Lambda's Invoke API: 200 + the JSON result, or 200 + `X-Amz-Function-Error` + `{ errorType, errorMessage }`. */
function sendOutcome(reply: FastifyReply, outcome: InvokeOutcome): FastifyReply {
  reply.header('content-type', 'application/json');
  if (outcome.ok) return reply.code(200).send(JSON.stringify(outcome.value ?? null));
  return reply.code(200).header('x-amz-function-error', 'Unhandled').send(JSON.stringify({ errorType: outcome.errorType, errorMessage: outcome.errorMessage }));
}

function notFound(reply: FastifyReply, code: 'FUNCTION_NOT_FOUND' | 'QUEUE_NOT_FOUND' | 'CRON_NOT_FOUND', what: string, name: string, known: readonly string[]): FastifyReply {
  const malformed = !NAME.test(name);
  const message = malformed
    ? `${JSON.stringify(name)} is not a ${what} name (letters, digits, "-", "_" and "/" between segments)`
    : `no ${what} ${JSON.stringify(name)} in this app; known: ${known.join(', ') || '(none)'}`;
  return sendError(reply, 404, code, message);
}

function parsePayload(body: unknown): { ok: true; value: unknown; text: string } | { ok: false } {
  const text = (body as Buffer | undefined)?.toString('utf8') ?? '';
  if (!text.trim()) return { ok: true, value: {}, text: '{}' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch {
    return { ok: false };
  }
}

/**
 * The dev endpoints: how `fw` commands, tests and the runtime's local clients reach the running app. A name is looked up among the app's units and never used to
 * build a file path, so no name can load a file outside `src/`.
 *
 * | route | in | out |
 * |---|---|---|
 * | `POST /_dev/invoke/<function>` | JSON payload (empty: `{}`); `X-Amz-Invocation-Type: Event` for async | 200 result / 200 + `X-Amz-Function-Error: Unhandled` + `{ errorType, errorMessage }`; async: 202 empty |
 * | `POST /_dev/invoke/queue/<queue>` | JSON body, becomes one record's `body` string | as above, with the consumer's result |
 * | `POST /_dev/invoke/cron/<cron>` | none | as above, with the handler's result (called once, no scheduler retries) |
 * | `GET /_dev/functions` | | 200 `{ routes, functions, queues, crons }` |
 *
 * `<function>` is a standalone function's id (`reports/daily`) or deployed name (never a route's: routes are reached
 * through their path, where tokens are checked); `<queue>` and `<cron>` are ids or deployed names. Unknown or malformed names: 404 `FUNCTION_NOT_FOUND` / `QUEUE_NOT_FOUND` /
 * `CRON_NOT_FOUND`; a body that is not JSON: 400 `INVALID_JSON`.
 */
export function devEndpointsPlugin(services: DevServices): FastifyPluginAsync {
  return async (server) => {
    server.post<{ Params: { name: string } }>(`${DEV_PATHS.invokeQueue}/:name`, async (request, reply) => {
      const app = services.currentApp();
      const name = request.params.name;
      const queue = app.queues.find((q) => q.id === name || q.queueName === name || q.functionName === name);
      if (!queue) return notFound(reply, 'QUEUE_NOT_FOUND', 'queue', name, app.queues.map((q) => q.id));
      const payload = parsePayload(request.body);
      if (!payload.ok) return sendError(reply, 400, 'INVALID_JSON', 'the request body is not JSON; it becomes the body of one queue message');
      const event = buildSqsEvent(app.region, queue.queueName, [{ messageId: randomUUID(), body: payload.text }]);
      return sendOutcome(reply, await services.invoke(queue, event, { requestId: request.id }));
    });

    server.post<{ Params: { name: string } }>(`${DEV_PATHS.invokeCron}/:name`, async (request, reply) => {
      const app = services.currentApp();
      const name = request.params.name;
      const cron = app.crons.find((c) => c.id === name || c.functionName === name || c.ruleName === name);
      if (!cron) return notFound(reply, 'CRON_NOT_FOUND', 'cron', name, app.crons.map((c) => c.id));
      return sendOutcome(reply, await services.invoke(cron, buildScheduledEvent(app.region, cron.ruleName), { requestId: request.id }));
    });

    server.post(`${DEV_PATHS.invoke}/*`, async (request, reply) => {
      const app = services.currentApp();
      const name = (request.params as { '*': string })['*'];
      // Standalone functions only: a route's function takes a gateway event whose authorizer claims the caller would
      // write themselves, so routes are reached through their path, where the token is checked.
      const unit: FunctionUnit | undefined = app.functions.find((f) => f.id === name || f.functionName === name);
      if (!unit) {
        const route = app.routes.find((r) => r.functionName === name);
        if (route) return sendError(reply, 404, 'FUNCTION_NOT_FOUND', `${JSON.stringify(name)} is the function of the route ${route.routeKey}: call ${route.method} ${route.path} instead (its token is checked there); /_dev/invoke takes standalone functions (src/functions/), queues (/_dev/invoke/queue/<id>) and crons (/_dev/invoke/cron/<id>)`);
        return notFound(reply, 'FUNCTION_NOT_FOUND', 'function', name, app.functions.flatMap((f) => [f.id, f.functionName]));
      }
      const payload = parsePayload(request.body);
      if (!payload.ok) return sendError(reply, 400, 'INVALID_JSON', 'the request body is not JSON; it becomes the function payload');
      const asynchronous = String(request.headers['x-amz-invocation-type'] ?? '').toLowerCase() === 'event';
      // Lambda's Invoke API refuses a payload over its quota before running anything, with this answer.
      const limit = asynchronous ? ASYNC_REQUEST_LIMIT_BYTES : SYNC_REQUEST_LIMIT_BYTES;
      const bytes = (request.body as Buffer | undefined)?.length ?? 0;
      if (bytes > limit) {
        services.log.warn(`invocation of ${unit.id} refused: its payload is ${describeBytes(bytes)}, over Lambda's limit for ${asynchronous ? 'an asynchronous invocation (1 MB' : 'a synchronous invocation (6 MB'}, ${limit} bytes)`);
        return reply.code(413).header('x-amzn-errortype', 'RequestEntityTooLargeException').send({ Type: 'User', message: requestTooLargeMessage(limit, asynchronous ? 'asynchronous' : 'synchronous') });
      }
      if (asynchronous) {
        // Nobody waits for this answer, so a failure is logged here or it would pass unseen.
        services.invoke(unit, payload.value, { requestId: request.id }).then(
          (outcome) => {
            if (!outcome.ok) services.log.error(`asynchronous invocation of ${unit.id} (request ${request.id}) failed: ${outcome.errorType}: ${outcome.errorMessage}`);
          },
          (error: unknown) => services.log.error(`asynchronous invocation of ${unit.id} (request ${request.id}) failed: ${(error as Error).stack ?? String(error)}`),
        );
        return reply.code(202).send();
      }
      return sendOutcome(reply, await services.invoke(unit, payload.value, { requestId: request.id }));
    });

    server.get(DEV_PATHS.functions, async () => {
      const app = services.currentApp();
      const routes = await Promise.all(
        app.routes.map(async (r) => {
          const loaded = await services.load(r);
          return { method: r.method, path: r.path, routeKey: r.routeKey, functionName: r.functionName, file: r.file, scopes: loaded.ok ? loaded.info.scopes : null, timeout: r.timeout, memorySize: r.memorySize };
        }),
      );
      return {
        routes,
        functions: app.functions.map((f) => ({ id: f.id, functionName: f.functionName, file: f.file, timeout: f.timeout, memorySize: f.memorySize, description: f.description ?? null })),
        queues: app.queues.map((q) => ({ id: q.id, queueName: q.queueName, functionName: q.functionName, file: q.file, batchSize: q.batchSize, visibilityTimeout: q.visibilityTimeout, maxReceiveCount: q.maxReceiveCount, deadLetterQueue: q.deadLetterQueueName ?? null })),
        crons: app.crons.map((c) => ({ id: c.id, functionName: c.functionName, file: c.file, expression: c.expression, enabled: c.enabled })),
      };
    });
  };
}
