import type { HttpResponse, Middleware, MiddlewareRequest } from './types.js';

/**
 * Runs the onion of `types.ts` around `core` (the handler plus the mapping of its return value):
 *
 * 1. `before` hooks in array order. A hook that returns a response ends the request early: later `before` hooks and
 *    the handler are skipped, and only the `after` hooks of the middlewares *before* it run (the one that answered
 *    already knows its response; an idempotency replay must not be stored again).
 * 2. `core(request)`; its response lands in `request.response`.
 * 3. `after` hooks in reverse order; each may replace `request.response`.
 * 4. On any throw (a hook or the handler): `request.error` is set, `request.response` cleared, and the `onError`
 *    hooks of every middleware that was entered run in reverse order, all of them (a hook that throws replaces
 *    `request.error`). If one set `request.response`, that is the answer; otherwise the error propagates and the
 *    handler maps it like any handler error.
 */
export async function runMiddleware<TContext>(
  request: MiddlewareRequest<TContext>,
  middleware: readonly Middleware<TContext>[],
  core: (request: MiddlewareRequest<TContext>) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  // How many middlewares were entered (their onError hooks run on failure) and how many completed `before`
  // without answering (their after hooks run).
  let entered = 0;
  let completed = 0;
  try {
    let early: HttpResponse | undefined;
    for (const m of middleware) {
      entered++;
      if (m.before) {
        const answer = await m.before(request);
        if (answer !== undefined && answer !== null) {
          early = answer;
          break;
        }
      }
      completed++;
    }
    request.response = early ?? (await core(request));
    for (let i = completed - 1; i >= 0; i--) {
      const after = middleware[i]?.after;
      if (after) await after.call(middleware[i], request);
    }
    return request.response;
  } catch (error) {
    request.error = error;
    request.response = undefined;
    for (let i = entered - 1; i >= 0; i--) {
      const m = middleware[i];
      if (!m?.onError) continue;
      try {
        await m.onError(request);
      } catch (hookError) {
        request.error = hookError;
      }
    }
    if (request.response) return request.response;
    throw request.error;
  }
}
