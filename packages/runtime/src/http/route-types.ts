import type { ExplicitResponse } from './response.js';
import type { StandardSchemaV1 } from './schemas/standard-schema.js';

/**
 * What a route's caller sends and gets back, as types only: carried by the handler `handler(...)` returns (never set
 * at run time), so a generated client reads them with `import type` from the route file instead of inferring them
 * from the schemas again at every call site. That keeps a 300-route client cheap to type-check.
 */
export interface RouteTypes<TBody = unknown, TQuery = unknown, TParams = unknown, TResult = unknown> {
  /** The request body the route accepts: its body schema's input type, or the type `fn` declares for `body`. */
  readonly body: TBody;
  /** The query parameters: its query schema's input type. */
  readonly query: TQuery;
  /** The path parameters: its params schema's input type. */
  readonly params: TParams;
  /**
   * The response body: its response schema's output type (with a map by status, the union of every declared status's
   * output type), else what `fn` returns (`undefined` for a 204).
   */
  readonly result: TResult;
}

/** What a caller receives for a return value: `response(...)` answers are the author's own, typed `unknown`. */
export type ResultOf<TReturn> = [Extract<TReturn, ExplicitResponse>] extends [never] ? Exclude<TReturn, null> : unknown;

/** The result of a route declaring `response` per status: the union of the declared schemas' output types. */
export type DeclaredResult<M> = { [K in keyof M]: M[K] extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<M[K]> : never }[keyof M];

/** The route types a handler carries (`unknown` everywhere for a value that is not one). */
export type RouteTypesOf<THandler> = THandler extends { readonly '~route'?: infer T } ? (T extends RouteTypes ? T : RouteTypes) : RouteTypes;
