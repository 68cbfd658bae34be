/**
 * Where `handler({ body, query, params, headers, response, fn })` keeps its schemas on the exported `main`: a
 * non-enumerable property under `Symbol.for(ROUTE_SCHEMAS_KEY)`, so two copies of the runtime agree on it. `fw openapi`
 * reads them (in a process that imports the route's bundle) to document the route; nothing else depends on them.
 */
export const ROUTE_SCHEMAS_KEY = '@framework/runtime.route-schemas';

/** The parts of a route a schema may describe. */
export const ROUTE_SCHEMA_PARTS = ['body', 'query', 'params', 'headers', 'response'] as const;
export type RouteSchemaPart = (typeof ROUTE_SCHEMA_PARTS)[number];

/**
 * The schemas a handler module declares, by part (only objects count: a module is user code), or an empty object
 * when `main` declares none (a handler without schemas, a plain Lambda handler).
 */
export function routeSchemasOf(main: unknown): Partial<Record<RouteSchemaPart, object>> {
  if (typeof main !== 'function' && (typeof main !== 'object' || main === null)) return {};
  const declared = (main as Record<symbol, unknown>)[Symbol.for(ROUTE_SCHEMAS_KEY)];
  if (typeof declared !== 'object' || declared === null) return {};
  const out: Partial<Record<RouteSchemaPart, object>> = {};
  for (const part of ROUTE_SCHEMA_PARTS) {
    const schema = (declared as Record<string, unknown>)[part];
    if ((typeof schema === 'object' || typeof schema === 'function') && schema !== null) out[part] = schema;
  }
  return out;
}
