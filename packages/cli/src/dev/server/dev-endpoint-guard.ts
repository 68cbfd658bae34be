import * as os from 'node:os';
import { DEV_OAUTH_PATHS, DEV_PATH_ROOT, DEV_PATHS } from '@framework/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DevGatewayErrorCode } from './gateway-error-codes.js';
import { errorResponse } from './gateway-response.js';

/** Where the dev endpoints live; everything under it answers only the developer. */
export const DEV_PATH_PREFIX = `${DEV_PATH_ROOT}/`;
/**
 * The local storage engine's object URLs. Presigned POST forms and presigned GETs are used from browser pages on
 * other origins (the app's front end), as with S3: the engine checks their signatures and applies the bucket's
 * `corsOrigins`, so only the Host rule applies there.
 */
const STORAGE_PATH_PREFIX = `${DEV_PATHS.storage}/`;
/**
 * What a dev endpoint's route tells the guard (Fastify's route `config`), so an engine that serves its own endpoint
 * states its exception there rather than in this file.
 */
export interface DevEndpointRouteConfig {
  /**
   * The endpoint takes a body of any media type, as the AWS service it stands in for does (the WebSocket API's
   * `@connections` endpoint: the AWS SDK posts the message as `application/octet-stream`). The Host and Origin rules
   * still apply, so no web page reaches it.
   */
  readonly devEndpointAnyBody?: boolean;
}

/** The route `config` of a dev endpoint that takes a body of any media type (see `DevEndpointRouteConfig`). */
export const DEV_ENDPOINT_ANY_BODY: DevEndpointRouteConfig = Object.freeze({ devEndpointAnyBody: true });
/**
 * The dev issuer's sign-in endpoints (Cognito's paths, not under `/_dev`): the app's front end navigates to them and
 * posts the login form from their own origin, so only the Host rule applies. It keeps a DNS-rebound page from
 * reading a token from them (the token endpoint checks no client secret locally).
 */
const OAUTH_PATHS: ReadonlySet<string> = new Set(Object.values(DEV_OAUTH_PATHS));
/** Methods that change state: their bodies must be JSON, which a web page cannot send cross-origin without a preflight. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** What the guard needs to know about the dev server. */
export interface DevEndpointGuardOptions {
  /** The address `fw dev` listens on (`--host`). @default '127.0.0.1' */
  readonly listenHost: string;
}

/** The host name of a `Host` header (lower case, IPv6 in brackets, numeric IPv4 forms normalized), or undefined if malformed. */
export function hostNameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader || !HOST_HEADER.test(hostHeader)) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether a host name (as `hostNameOf` returns it) always means this machine. */
export function isLoopbackName(hostName: string): boolean {
  return hostName === 'localhost' || hostName === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostName);
}

/**
 * The host names the dev endpoints answer to besides the loopback ones: the `--host` address, or with a wildcard
 * address (`0.0.0.0`, `::`) the addresses of this machine's interfaces (what a phone on the LAN would use).
 */
export function configuredHostNames(listenHost: string): Set<string> {
  const names = new Set<string>();
  const add = (address: string) => {
    const name = hostNameOf(address.includes(':') ? `[${address}]` : address);
    if (name) names.add(name);
  };
  if (listenHost === '0.0.0.0' || listenHost === '::') {
    for (const addresses of Object.values(os.networkInterfaces())) for (const a of addresses ?? []) add(a.address.split('%')[0]!);
  } else {
    add(listenHost);
  }
  return names;
}

/** Whether a request path (raw, before decoding) is under `/_dev/`, whatever its percent-encoding. */
export function isDevPath(rawUrl: string): boolean {
  const q = rawUrl.indexOf('?');
  let path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  // Asked of every request: a path with no escapes and no doubled slashes is compared as it is.
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      // a malformed path is checked as it is
    }
  }
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  return path === DEV_PATH_ROOT || path.startsWith(DEV_PATH_PREFIX);
}

/** The codes of the guard's refusals (each has a row in the README). */
export const DEV_ENDPOINT_REFUSALS = ['HOST_NOT_ALLOWED', 'CROSS_ORIGIN_REQUEST', 'UNSUPPORTED_MEDIA_TYPE'] as const satisfies readonly DevGatewayErrorCode[];

function refuse(reply: FastifyReply, statusCode: number, code: (typeof DEV_ENDPOINT_REFUSALS)[number], message: string): FastifyReply {
  const response = errorResponse(statusCode, code, message, reply.request.id);
  return reply.code(statusCode).headers(response.headers).send(response.body);
}

/**
 * An `onRequest` hook that keeps web pages away from the dev endpoints (a page the developer visits could otherwise
 * mint tokens, invoke functions and send queue messages):
 * - the `Host` must be a loopback name or the configured host (a DNS-rebound name is refused): 403 `HOST_NOT_ALLOWED`;
 * - an `Origin` other than the dev server's own (including `null`) is a browser page elsewhere: 403 `CROSS_ORIGIN_REQUEST`;
 * - a state-changing request with a body must say `Content-Type: application/json` (a cross-origin form or
 *   `text/plain` POST cannot): 415 `UNSUPPORTED_MEDIA_TYPE`.
 * Routes are not concerned: they stay reachable as they are in the cloud.
 */
export function devEndpointGuard(options: DevEndpointGuardOptions): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  const configured = configuredHostNames(options.listenHost);
  const refusal = (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const rawUrl = request.raw.url ?? '/';
    const routeUrl = request.routeOptions.url;
    const signIn = routeUrl !== undefined && OAUTH_PATHS.has(routeUrl);
    if (!(signIn || routeUrl?.startsWith(DEV_PATH_PREFIX) || isDevPath(rawUrl))) return undefined;
    const hostHeader = request.headers.host;
    const hostName = hostNameOf(hostHeader);
    if (!hostName || !(isLoopbackName(hostName) || configured.has(hostName))) {
      const allowed = ['localhost', '127.0.0.1', '[::1]', ...configured].filter((v, i, all) => all.indexOf(v) === i).join(', ');
      return refuse(reply, 403, 'HOST_NOT_ALLOWED', `the /_dev and sign-in endpoints answer only requests addressed to this machine (Host ${allowed}); Host ${JSON.stringify(hostHeader ?? '')} is refused, as a web page reaching fw dev through DNS rebinding would send it. Use the URL fw dev prints, or start it with --host <that name>`);
    }
    if (signIn || routeUrl?.startsWith(STORAGE_PATH_PREFIX)) return undefined;
    const origin = request.headers.origin;
    if (origin !== undefined && !isSameOrigin(origin, hostHeader!)) {
      return refuse(reply, 403, 'CROSS_ORIGIN_REQUEST', `the /_dev endpoints do not answer web pages of other origins (Origin ${JSON.stringify(origin)}); call them from a terminal, a script or a function, not from a browser page`);
    }
    if ((request.routeOptions.config as DevEndpointRouteConfig | undefined)?.devEndpointAnyBody === true) return undefined;
    if (!READ_ONLY_METHODS.has(request.method)) {
      const contentType = request.headers['content-type'];
      const hasBody = contentType !== undefined || request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
      if (hasBody && mediaType(contentType) !== 'application/json') {
        return refuse(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', `${request.method} ${rawUrl.split('?')[0]} takes a JSON body: send Content-Type: application/json (got ${contentType === undefined ? 'none' : JSON.stringify(contentType)})`);
      }
    }
    return undefined;
  };
  // Callback style: a route's request (every request but the developer's own) costs no promise.
  return (request, reply, done) => {
    if (!refusal(request, reply)) done();
  };
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether `Origin` names the dev server itself (the origin of the URL the request was sent to). */
function isSameOrigin(origin: string, hostHeader: string): boolean {
  try {
    const from = new URL(origin);
    return from.protocol === 'http:' && from.host === new URL(`http://${hostHeader}`).host;
  } catch {
    return false;
  }
}
