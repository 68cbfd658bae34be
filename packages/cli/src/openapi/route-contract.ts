import type { RouteSchemaPart } from '@framework/core';
import type { ConvertedSchema } from './json-schema.js';

/** What a route module declares, as the document needs it: read by importing its bundle (`readRouteContracts`). */
export interface RouteContract {
  /** Required scopes (empty: public). */
  readonly scopes: readonly string[];
  /** Whether the idempotency middleware is in the chain (the route takes an `Idempotency-Key` header). */
  readonly idempotent: boolean;
  /** The declared schemas, converted (`response` only when it is one schema). */
  readonly schemas: Partial<Record<RouteSchemaPart, ConvertedSchema>>;
  /** `response` declared per status (`{ 200: task, 202: accepted }`): each status's schema, converted. */
  readonly responses?: Readonly<Record<string, ConvertedSchema>>;
}

/** A route module that did not compile or threw while loading: documented without its schemas, with the reason. */
export interface UnreadableRoute {
  readonly error: string;
}

export type RouteContractResult = RouteContract | UnreadableRoute;

export function isUnreadable(result: RouteContractResult): result is UnreadableRoute {
  return 'error' in result;
}
