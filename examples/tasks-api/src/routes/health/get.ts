import { handler } from '@framework/runtime';

/** GET /health: public. */
export const main = handler(async (_body, ctx) => ({
  status: 'ok',
  timestamp: ctx.timestamp.toISOString(),
  requestId: ctx.requestId,
}));
