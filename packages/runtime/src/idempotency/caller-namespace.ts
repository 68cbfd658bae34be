import { authFromEvent } from '../context/auth.js';
import { currentTenant } from '../context/tenant.js';
import type { MiddlewareRequest } from '../middleware/types.js';

/** The namespace every request without an identity shares (one per route, like any namespace). */
export const ANONYMOUS_IDEMPOTENCY_NAMESPACE = 'anonymous';

/**
 * Whose records a request may see: the verified token's subject (`sub`), or, for a token without one, its client id
 * (`client_id`; a Cognito client-credentials token's `sub` is the client id anyway); requests without claims share
 * `anonymous`. A key is a client-chosen value, so without this user B could send user A's key and get A's stored
 * response (or learn from a 422 that A used it). Inside a tenant (a tenancy middleware placed before this one) the
 * namespace starts with it: `tenant:<id>/caller:<sub>`, so the same subject in two tenants (or two tenants' anonymous
 * callers) never share records either.
 */
export function callerIdempotencyNamespace(request: MiddlewareRequest<unknown>): string {
  const subject = authFromEvent(request.event)?.subject;
  const caller = subject ? `caller:${subject}` : ANONYMOUS_IDEMPOTENCY_NAMESPACE;
  const tenant = currentTenant();
  return tenant ? `tenant:${tenant.id}/${caller}` : caller;
}

/**
 * The record key: `<scope>#<namespace>#<key>`. The namespace is percent-encoded so it never holds a `#`: the client
 * controls the key, and a key such as `caller:alice#k` must not let one namespace reach into another.
 */
export function namespacedIdempotencyKey(scope: string, namespace: string, key: string): string {
  return `${scope}#${encodeURIComponent(namespace)}#${key}`;
}
