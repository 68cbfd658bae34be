/**
 * The WebSocket topic of a room's connections: namespaced by tenant, so two tenants' rooms never share a topic
 * (a room id is a UUID already; the tenant makes it hold by construction, not by chance).
 */
export function roomTopic(tenantId: string, roomId: string): string {
  return `fw-chat:${tenantId}:${roomId}`;
}
