import { isIntentHandlerKind } from '../intents/registry.js';
import type { HandlerKind } from './handler-kind.js';

/**
 * What a handler declares about itself, readable from the exported `main` without invoking it. The runtime's
 * `handler(...)` and `taskHandler(...)` attach it (`main.handlerInfo`); the dev server reads it to check tokens
 * locally, the infra package to configure the gateway's authorizer and the idempotency table.
 */
export interface HandlerInfo {
  /** `http`, `task`, or the handler kind an intent kind brings (`ws`: see `HandlerKinds`). */
  readonly kind: HandlerKind;
  /** Required scopes; empty means public. */
  readonly scopes: readonly string[];
  /** Names of the middlewares, in order. */
  readonly middleware: readonly string[];
  /** `taskHandler`'s in-invocation retries. */
  readonly retries?: number;
  /** Whether the idempotency middleware (name `idempotency`) is in the chain. */
  readonly idempotent?: boolean;
  /**
   * How callers may authenticate (`auth: ['jwt', 'apiKey']`); absent means a bearer token only. A route that accepts
   * `apiKey` is checked by the API-key verifier (a Lambda authorizer deployed, the function itself under `fw dev`).
   */
  readonly auth?: readonly AuthMethod[];
}

/** A way a caller proves who it is: an access token (JWT) or one of the app's API keys. */
export type AuthMethod = 'jwt' | 'apiKey';

const AUTH_METHODS: readonly string[] = ['jwt', 'apiKey'];

/**
 * The one reader of a handler module's declaration, for the dev worker and for infra's bundling alike: `main` as the
 * module exports it, its `handlerInfo` taken field by field (a module is user code: only strings count as scopes and
 * middleware names, a kind other than `task` and the intent kinds' handler kinds is `http`). Undefined when `main` declares nothing (a plain Lambda
 * handler: a public route).
 */
export function handlerInfoOf(main: unknown): HandlerInfo | undefined {
  if (typeof main !== 'function' && (typeof main !== 'object' || main === null)) return undefined;
  const info = (main as { handlerInfo?: unknown }).handlerInfo;
  if (typeof info !== 'object' || info === null) return undefined;
  const { kind, scopes, middleware, retries, idempotent, auth } = info as Record<string, unknown>;
  const methods = strings(auth).filter((method): method is AuthMethod => AUTH_METHODS.includes(method));
  return {
    kind: kind === 'task' || isIntentHandlerKind(kind) ? kind : 'http',
    scopes: strings(scopes),
    middleware: strings(middleware),
    ...(typeof retries === 'number' ? { retries } : {}),
    ...(typeof idempotent === 'boolean' ? { idempotent } : {}),
    ...(methods.length > 0 ? { auth: methods } : {}),
  };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
