import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler } from '@framework/runtime';
import { Database } from '@framework/data';
import { migrate, parseMigration } from '@framework/data/migrations';
import { createNotifier, NOTIFY_MIGRATION_SQL } from '@framework/notify';
import { startPglite, type RunningEngine } from '../../../data/test/support/pglite-server.js';
import { applyBillingEvent, BILLING_MIGRATION_SQL, receiptNotification, verifiedBillingEvent, type ApplyBillingEventOptions, type BillingEvent, type BillingProvider } from '../../src/index.js';

/** A payload 2.0 event for POST /billing/webhook with this raw body and headers. */
export function webhookEvent(body: string, headers: IncomingHttpHeaders) {
  return {
    version: '2.0',
    routeKey: 'POST /billing/webhook',
    rawPath: '/billing/webhook',
    rawQueryString: '',
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])),
    requestContext: { requestId: `req-${Math.random()}`, http: { method: 'POST', path: '/billing/webhook', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, routeKey: 'POST /billing/webhook', stage: '$default', time: '', timeEpoch: 0, accountId: '1', apiId: 'a', domainName: 'd', domainPrefix: 'd' },
    body,
    isBase64Encoded: false,
  } as never;
}

export const templates = { 'billing-receipt': receiptNotification };
export const notifier = createNotifier({ templates });

/** The database of a webhook test: PGlite with notify's outbox and the billing tables, migrated as an app does. */
export async function startBillingDatabase(): Promise<{ db: Database; stop(): Promise<void> }> {
  const engine: RunningEngine = await startPglite();
  const db = new Database({ connection: engine.connection, maxConnections: 4, logger: { warn: () => undefined } });
  await migrate(db, {
    migrations: [parseMigration('0001_notify_outbox.sql', NOTIFY_MIGRATION_SQL), parseMigration('0002_billing.sql', BILLING_MIGRATION_SQL)],
  });
  return {
    db,
    async stop() {
      await db.end();
      await engine.stop();
    },
  };
}

/** The app's webhook route, as a route file writes it: verified event in, applied once. */
export function webhookRoute(db: Database, provider: BillingProvider, options: ApplyBillingEventOptions) {
  return handler({
    middleware: [verifiedBillingEvent(provider)],
    fn: async (event) => {
      const result = await applyBillingEvent(db, event as BillingEvent, options);
      return { received: true, outcome: result.outcome };
    },
  });
}

/** Serves `route` on 127.0.0.1 over real HTTP (the fake's webhooks arrive here). */
export async function serveRoute(route: ReturnType<typeof webhookRoute>): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void route(webhookEvent(Buffer.concat(chunks).toString('utf8'), request.headers)).then((result) => {
        response.writeHead(result.statusCode, result.headers as Record<string, string>).end(result.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/billing/webhook`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
