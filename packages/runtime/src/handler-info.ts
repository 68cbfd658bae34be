import type { HandlerInfo } from '@framework/core/names';

/**
 * What a handler declares, readable from the exported `main` without invoking it. Core owns the shape and its one
 * reader (`handlerInfoOf`), which the dev server and the infra package both use.
 */
export type { HandlerInfo } from '@framework/core/names';

/**
 * The name the idempotency middleware registers under (it exports the same constant from `idempotency/`);
 * `handlerInfo.idempotent` looks for it. Not exported here, to keep one public name.
 */
export const IDEMPOTENT_MIDDLEWARE = 'idempotency';

/** Attaches the read-only `handlerInfo` property. */
export function withHandlerInfo<F extends object>(fn: F, info: HandlerInfo): F & { readonly handlerInfo: HandlerInfo } {
  // Not writable, not configurable: defineProperty's defaults.
  Object.defineProperty(fn, 'handlerInfo', { value: Object.freeze(info), enumerable: true });
  return fn as F & { readonly handlerInfo: HandlerInfo };
}
