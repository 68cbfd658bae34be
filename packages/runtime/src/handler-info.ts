/**
 * What a handler declares, readable from the exported `main` without invoking it: the dev server reads
 * `mod.main.handlerInfo.scopes` to enforce auth locally, the infra package to configure the gateway authorizer.
 */
export interface HandlerInfo {
  readonly kind: 'http' | 'task';
  /** Required scopes; empty means public. */
  readonly scopes: readonly string[];
  /** Names of the middlewares, in order. */
  readonly middleware: readonly string[];
  /** `taskHandler`'s in-invocation retries. */
  readonly retries?: number;
  /** Whether the idempotency middleware (name `idempotency`) is in the chain. */
  readonly idempotent?: boolean;
}

/**
 * The name the idempotency middleware registers under (it exports the same constant from `idempotency/`);
 * `handlerInfo.idempotent` looks for it. Not exported here, to keep one public name.
 */
export const IDEMPOTENT_MIDDLEWARE = 'idempotency';

/** Attaches the read-only `handlerInfo` property. */
export function withHandlerInfo<F extends object>(fn: F, info: HandlerInfo): F & { readonly handlerInfo: HandlerInfo } {
  Object.defineProperty(fn, 'handlerInfo', { value: Object.freeze(info), enumerable: true, writable: false, configurable: false });
  return fn as F & { readonly handlerInfo: HandlerInfo };
}
