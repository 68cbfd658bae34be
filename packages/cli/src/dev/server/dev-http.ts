import type { AppDefinition } from '@framework/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { localAudiences } from '../auth/issuer-plugin.js';
import { LocalIssuer } from '../auth/local-issuer.js';
import { UserStore } from '../auth/user-store.js';
import { createHttpServer, wireHttpServer, type HttpWiring } from './http-server.js';

/** What the HTTP side of `fw dev` is opened with: the wiring, less what it makes itself (the issuer and its users). */
export interface DevHttpOptions extends Omit<HttpWiring, 'issuer' | 'users' | 'usersSeeded' | 'serveRoute'> {
  readonly app: AppDefinition;
  /** Where the issuer keeps its key and its users (`.fw`). */
  readonly dataDir: string;
  /** The server's URL: the issuer's `iss`. */
  readonly url: string;
  /** Serves a request to a route of the app, its token checked against the local issuer. */
  serveRoute(request: FastifyRequest, reply: FastifyReply, issuer: LocalIssuer): Promise<FastifyReply>;
}

/** The HTTP side, wired and not yet listening. */
export interface DevHttp {
  readonly fastify: FastifyInstance;
  readonly issuer: LocalIssuer;
  /**
   * The stage's seeded users, their passwords hashed (scrypt): serving does not wait for it, the sign-in, token and
   * user endpoints do (`HttpWiring.usersSeeded`). A failure is logged and rejects nothing.
   */
  readonly seeded: Promise<void>;
}

/**
 * Opens the HTTP side of `fw dev`: the local issuer, its users (the stage's seeded ones hashing on libuv's threads
 * meanwhile), then Fastify with the engines' routes, the dev endpoints and the gateway. `DevServer.start` calls it
 * once the engines, the spare threads and esbuild are booting, so Fastify's load overlaps them; it listens later.
 */
export async function openDevHttp(options: DevHttpOptions): Promise<DevHttp> {
  const { app, dataDir, url, serveRoute, ...wiring } = options;
  const issuer = await LocalIssuer.open(dataDir, url, localAudiences(app));
  const users = UserStore.open(dataDir);
  // A failure (the users file unwritable) is said once; the sign-in endpoints then serve the users as they are.
  const seeded = users.seed(app.config.auth?.users ?? []).catch((error: Error) => wiring.log.error(`the stage config's users were not seeded: ${error.message}`));
  const fastify = await createHttpServer(wiring.log);
  try {
    await wireHttpServer(fastify, { ...wiring, issuer, users, usersSeeded: seeded, serveRoute: (request, reply) => serveRoute(request, reply, issuer) });
  } catch (error) {
    await fastify.close().catch(() => undefined);
    throw error;
  }
  return { fastify, issuer, seeded };
}
