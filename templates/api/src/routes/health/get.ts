import { handler } from '@framework/runtime';

/** `GET /health`: public (no scopes). Load balancers and uptime checks call it. */
export const main = handler(async (_body: unknown, ctx) => ({
  status: 'ok',
  timestamp: ctx.timestamp.toISOString(),
  requestId: ctx.requestId,
}));
