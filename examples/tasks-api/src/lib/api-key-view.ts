import type { ApiKeyRecord } from '@framework/integrations';

/** A key record as the API shows it (dates as ISO text; owner and hash left out). */
export function apiKeyView(record: ApiKeyRecord) {
  return {
    id: record.id,
    prefix: record.prefix,
    name: record.name,
    scopes: [...record.scopes],
    createdAt: record.createdAt.toISOString(),
    ...(record.expiresAt ? { expiresAt: record.expiresAt.toISOString() } : {}),
    ...(record.revokedAt ? { revokedAt: record.revokedAt.toISOString() } : {}),
    ...(record.lastUsedAt ? { lastUsedAt: record.lastUsedAt.toISOString() } : {}),
  };
}
