import * as z from './zod.js';

const scope = z.enum(['tasks:read', 'tasks:write', 'tasks:admin']);
const positiveInt = z.int().check(z.positive());

/** POST /api-keys */
export const newApiKey = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  scopes: z.array(scope).check(z.minLength(1)),
  /** Seconds until the key expires (none: it does not). */
  expiresInSeconds: z.optional(positiveInt),
  rateLimit: z.optional(z.object({ requests: positiveInt, windowSeconds: positiveInt })),
});

/** An API key as listed (never the key itself). */
export const apiKeyRecord = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.optional(z.string()),
  revokedAt: z.optional(z.string()),
  lastUsedAt: z.optional(z.string()),
});

/** POST /api-keys answers the key once, with its record. */
export const issuedApiKey = z.extend(apiKeyRecord, { key: z.string() });

/** POST /webhook-endpoints */
export const newWebhookEndpoint = z.object({ url: z.url(), eventTypes: z.array(z.enum(['task.created', '*'])).check(z.minLength(1)) });

/** POST /webhook-endpoints answers the signing secret once. */
export const registeredWebhookEndpoint = z.object({ id: z.string(), url: z.string(), eventTypes: z.array(z.string()), secret: z.string() });
