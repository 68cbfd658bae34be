import { createHash } from 'node:crypto';

/**
 * Nested stacks the route functions are spread over. A route costs about seven CloudFormation resources (function,
 * role, policy, log group, route, integration, permission); 16 shards hold 300 routes at roughly 20 routes
 * (~140 resources) each, far below the 500-resource limit, with room for uneven hashing and for growth.
 */
export const DEFAULT_ROUTE_SHARDS = 16;

/** CloudFormation's limit of resources in one stack. */
export const MAX_RESOURCES_PER_STACK = 500;

/**
 * The shard of a route: a hash of its route key modulo the shard count. It depends on nothing but the route itself,
 * so adding or removing a route never moves another route to a different stack (which would replace its function).
 * Changing the shard count does move routes: it is a one-time decision per app.
 */
export function routeShardOf(routeKey: string, shards: number): number {
  const digest = createHash('sha256').update(routeKey).digest();
  return digest.readUInt32BE(0) % shards;
}
