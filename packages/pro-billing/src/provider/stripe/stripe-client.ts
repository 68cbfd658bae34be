import Stripe from 'stripe';

/** What a Stripe client needs: the key, and where the API is (the local fake speaks plain HTTP on loopback). */
export interface StripeClientOptions {
  readonly apiKey: string;
  /** @default - Stripe's API */
  readonly apiUrl?: string;
  /** @default 2 */
  readonly maxNetworkRetries?: number;
}

/** Stripe's SDK pointed at `apiUrl` when given. */
export function stripeClient(options: StripeClientOptions): Stripe {
  const config: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: options.maxNetworkRetries ?? 2, telemetry: false };
  if (!options.apiUrl) return new Stripe(options.apiKey, config);
  const url = new URL(options.apiUrl);
  return new Stripe(options.apiKey, { ...config, host: url.hostname, port: url.port || (url.protocol === 'http:' ? 80 : 443), protocol: url.protocol === 'http:' ? 'http' : 'https' });
}
