/** What onboarding and offboarding announce, in order, on the queue the app names (`service.queues['tenant-events']`). */
export type TenantEvent =
  | { readonly type: 'tenant.onboarded'; readonly tenantId: string; readonly at: string; readonly name: string; readonly tier: string; readonly admin: string }
  | { readonly type: 'tenant.disabled'; readonly tenantId: string; readonly at: string }
  | { readonly type: 'tenant.exported'; readonly tenantId: string; readonly at: string; readonly exportKey?: string; readonly rows: number; readonly files: number }
  | { readonly type: 'tenant.deleted'; readonly tenantId: string; readonly at: string; readonly rows: number; readonly files: number };

/** Where events go: a queue client (`service.queues[id]`) or anything with `send`. */
export interface TenantEventSink {
  send(event: TenantEvent): Promise<unknown>;
}
