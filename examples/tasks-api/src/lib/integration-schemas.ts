import { z } from 'zod';

const scope = z.enum(['tasks:read', 'tasks:write', 'tasks:admin']);

/** POST /api-keys */
export const newApiKey = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(scope).min(1),
  /** Seconds until the key expires (none: it does not). */
  expiresInSeconds: z.number().int().positive().optional(),
  rateLimit: z.object({ requests: z.number().int().positive(), windowSeconds: z.number().int().positive() }).optional(),
});

/** An API key as listed (never the key itself). */
export const apiKeyRecord = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
  revokedAt: z.string().optional(),
  lastUsedAt: z.string().optional(),
});

/** POST /api-keys answers the key once, with its record. */
export const issuedApiKey = apiKeyRecord.extend({ key: z.string() });

/** POST /webhook-endpoints */
export const newWebhookEndpoint = z.object({ url: z.url(), eventTypes: z.array(z.enum(['task.created', '*'])).min(1) });

/** POST /webhook-endpoints answers the signing secret once. */
export const registeredWebhookEndpoint = z.object({ id: z.string(), url: z.string(), eventTypes: z.array(z.string()), secret: z.string() });
