/** Options of `stripeProvider`. */
export interface StripeProviderOptions {
  /** The secret API key (`sk_live_...`, `sk_test_...`; the local fake's key under `fw dev`). */
  readonly apiKey: string;
  /** The endpoint's signing secret (`whsec_...`), from the Stripe dashboard or the local fake. */
  readonly webhookSecret: string;
  /** Stripe price id per plan of the app's config: `{ free: 'price_free', pro: 'price_1P...' }`. */
  readonly prices: Readonly<Record<string, string>>;
  /**
   * The metered Stripe prices per plan and meter: `{ pro: { api_calls: 'price_1Q...' } }` (`syncStripePlans`'
   * `meteredPrices`; the local fake's `localStripeMeteredPriceIds(plans)`). Every subscription, checkout session and
   * plan change carries one item per metered price of its plan beside the licensed one, so Stripe charges the usage
   * pushed as meter events. A plan that charges usage without its metered prices here is never charged for it.
   * @default - none: subscriptions carry the licensed price only
   */
  readonly meteredPrices?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Stripe billing meter `event_name` per meter of the app's config: `{ api_calls: 'api_calls' }`.
   * @default - the meter's own name
   */
  readonly meters?: Readonly<Record<string, string>>;
  /**
   * How far a webhook's signed timestamp may be from now, in seconds.
   * @default 300
   */
  readonly toleranceSeconds?: number;
  /**
   * Where the API is: `http://127.0.0.1:12111` for the local fake.
   * @default - Stripe's API
   */
  readonly apiUrl?: string;
  /**
   * Retries of a failed call (Stripe's SDK retries with idempotency keys, so a retried create is not doubled).
   * @default 2
   */
  readonly maxNetworkRetries?: number;
}
