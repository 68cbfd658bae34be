import { timingSafeEqual } from 'node:crypto';
import type { AuthUser, UserAdmin } from '@framework/auth';
import { authUserToJson, AuthError, DEV_AUTH_TOKEN_HEADER, InvalidUserInputError, NothingToConfirmError, UnknownRoleError, UserExistsError, UserNotFoundError } from '@framework/auth/dev-server';
import { DEV_PATHS } from '@framework/core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

const ACTIONS: ReadonlySet<string> = new Set(['createUser', 'getUser', 'listUsers', 'confirmUser', 'disableUser', 'enableUser', 'deleteUser', 'setRoles', 'setTenant', 'signOutEverywhere']);

/** The status of an error of a user call. */
function statusOf(error: AuthError): number {
  if (error instanceof UserNotFoundError) return 404;
  if (error instanceof UserExistsError || error instanceof NothingToConfirmError) return 409;
  if (error instanceof InvalidUserInputError || error instanceof UnknownRoleError) return 400;
  return 500;
}

function sameSecret(a: string | undefined, b: string): boolean {
  return a !== undefined && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * `POST /_dev/auth/admin` `{ action, args }`: one `service.auth` user call, run on the dev issuer's user store. Only a
 * caller with this run's secret (`FW_DEV_AUTH_TOKEN`, given to the functions, never written to disk) is answered:
 * 200 `{ result }`, or `{ error: { code, message, ... } }` with 400 (bad input, unknown role), 404, 409 (a taken username, a user with nothing to confirm), 401.
 */
export function userAdminPlugin(admin: UserAdmin, secret: string, options: { consolePath?: string } = {}): FastifyPluginAsync {
  return async (server) => {
    server.post(DEV_PATHS.authAdmin, async (request, reply) => {
      const header = request.headers[DEV_AUTH_TOKEN_HEADER];
      if (!sameSecret(typeof header === 'string' ? header : undefined, secret)) {
        return reply.code(401).send({ error: { code: 'UNAUTHORIZED', message: `the user admin of fw dev answers only service.auth in the app's functions (header ${DEV_AUTH_TOKEN_HEADER}); from a shell, use fw auth users`, requestId: request.id } });
      }
      return userCall(admin, request, reply);
    });
    // The dev console's Auth tab: the same calls, kept to this machine's same-origin pages by the /_dev guard alone
    // (as POST /_dev/token, which mints a token for any user, is).
    if (options.consolePath) server.post(options.consolePath, async (request, reply) => userCall(admin, request, reply));
  };
}

async function userCall(admin: UserAdmin, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): FastifyReply =>
    reply.code(status).send({ error: { code, message, requestId: request.id, ...extra } });
  let input: { action?: unknown; args?: unknown };
  try {
    input = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') ?? '') as typeof input;
  } catch {
    return fail(400, 'INVALID_JSON', 'the request body is not JSON; send { "action": "getUser", "args": ["ada"] }');
  }
  if (typeof input?.action !== 'string' || !ACTIONS.has(input.action) || !Array.isArray(input.args)) {
    return fail(400, InvalidUserInputError.CODE, `expected { action, args } with action one of ${[...ACTIONS].join(', ')}`);
  }
  try {
    const call = admin[input.action as keyof UserAdmin] as (...args: unknown[]) => Promise<unknown>;
    const result = await call.apply(admin, input.args);
    return { result: jsonOf(result) };
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    const detail =
      error instanceof UnknownRoleError
        ? { roles: error.roles, declared: error.declared }
        : error instanceof NothingToConfirmError
          ? { username: error.username, status: error.status }
          : error instanceof UserNotFoundError || error instanceof UserExistsError
            ? { username: error.username }
            : {};
    return fail(statusOf(error), error.code, error.message, detail);
  }
}

function jsonOf(result: unknown): unknown {
  if (result === undefined) return null;
  const page = result as { users?: AuthUser[]; nextCursor?: string };
  if (Array.isArray(page.users)) return { users: page.users.map(authUserToJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  return authUserToJson(result as AuthUser);
}
