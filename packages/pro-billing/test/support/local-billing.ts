import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalStripe, stripeProvider, type BillingProvider, type LocalStripeOptions } from '../../src/index.js';

/** The plans of these tests and their prices on the fake. */
export const PRICES = { free: 'price_free', pro: 'price_pro' } as const;

export const FAKE_PRICES: LocalStripeOptions['prices'] = {
  price_free: { unitAmountCents: 0, nickname: 'Free' },
  price_pro: { unitAmountCents: 1000, nickname: 'Pro' },
};

/** A request the receiver got: raw body and headers, as a webhook route sees them. */
export interface ReceivedWebhook {
  readonly body: string;
  readonly headers: Record<string, string | undefined>;
}

/** An HTTP endpoint on 127.0.0.1 that keeps what it receives and answers `status()` (200 by default). */
export async function startReceiver(status: () => number = () => 200): Promise<{ url: string; received: ReceivedWebhook[]; stop(): Promise<void> }> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])) });
      response.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/billing/webhook`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The Stripe adapter pointed at a running fake. */
export function adapterFor(fake: LocalStripe, overrides: Partial<Parameters<typeof stripeProvider>[0]> = {}): BillingProvider {
  return stripeProvider({ apiKey: fake.apiKey, webhookSecret: fake.webhookSecret, prices: PRICES, apiUrl: fake.url, maxNetworkRetries: 0, ...overrides });
}
