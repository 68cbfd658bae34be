import type { BillingPlans, PlanDefinition, PriceTier } from '../model.js';

/** A price the fake knows: what `prices` of `stripeProvider` points at. */
export interface LocalStripePrice {
  /** Per unit (per seat for per-seat plans), in cents, per month. */
  readonly unitAmountCents: number;
  /** @default 'usd' */
  readonly currency?: string;
  /**
   * A nickname shown on the fake's pages and invoice lines.
   * @default - the price id
   */
  readonly nickname?: string;
  /**
   * The plan of the app's config this price bills (`plans` fills it in): its flat and per-seat prices replace
   * `unitAmountCents` on invoices and prorations, and its metered prices and overages charge the meter events.
   * @default - none: `unitAmountCents` per unit
   */
  readonly plan?: PlanDefinition;
  /**
   * A metered price: the billing meter (its `event_name`) whose events it charges. The fake lists a billing meter
   * per event name its prices name (`localMeterId(eventName)`); a subscription item on this price carries no
   * quantity and is charged, at period close, the customer's meter events of the period on `tiers`.
   * @default - none: a licensed price (quantity × amount)
   */
  readonly meter?: string;
  /**
   * The graduated tiers of a metered price (the plan's, when derived from `plans`).
   * @default - one tier: `unitAmountCents` per unit
   */
  readonly tiers?: readonly PriceTier[];
}

/** What one unit of a billing meter costs on the fake's invoices. */
export interface LocalStripeMeterPrice {
  /** Cents per unit as a decimal string (`'0.1'`: a tenth of a cent), as Stripe's `unit_amount_decimal`. */
  readonly unitAmountDecimal: string;
  /**
   * Units each period does not charge.
   * @default 0
   */
  readonly includedUnits?: number;
}

export interface LocalStripeOptions {
  /**
   * The app's plans (`app.billing`): the fake charges exactly them, one licensed price per plan with the id
   * `localPriceId(plan)` (`price_pro`: flat and seats; `localStripePriceIds(plans)` is the adapter's `prices`) and
   * one metered price per meter the plan charges, `localMeteredPriceId(plan, meter)` (`price_pro__api_calls`, on
   * the plan's tiers; `localStripeMeteredPriceIds(plans)` is the adapter's `meteredPrices`). Give `plans` or
   * `prices`.
   * @default - none: `prices`
   */
  readonly plans?: BillingPlans;
  /**
   * The price ids the app's adapter maps its plans to, with their amounts, when not derived from `plans`.
   * @default - from `plans`
   */
  readonly prices?: Readonly<Record<string, LocalStripePrice>>;
  /**
   * Meter event names with their unit price (usage lines on the fake's invoices).
   * @default - none (meter events are recorded, not charged)
   */
  readonly meterPrices?: Readonly<Record<string, LocalStripeMeterPrice>>;
  /**
   * The secret key calls must carry (`Authorization: Bearer ...`); give the adapter the same `apiKey`.
   * @default 'sk_test_fw_local'
   */
  readonly apiKey?: string;
  /**
   * The signing secret of the webhooks it sends; give the adapter the same `webhookSecret`.
   * @default 'whsec_fw_local'
   */
  readonly webhookSecret?: string;
  /**
   * Where webhooks go (the app's webhook route). Settable later with `setWebhookUrl`.
   * @default - none: events are recorded, not sent
   */
  readonly webhookUrl?: string;
  /**
   * Send each event as it happens. `false` holds them until `deliver(id)` (tests of order and replay).
   * @default true
   */
  readonly autoDeliver?: boolean;
  /**
   * The port on 127.0.0.1.
   * @default 0 (a free port)
   */
  readonly port?: number;
  /**
   * The billing clock: object times, periods and proration read it (the testing package's clock in tests).
   * Signatures use the real time (the receiver checks them against its own).
   * @default - the system clock
   */
  readonly now?: () => Date;
  /**
   * A JSON file keeping the fake's objects across restarts (written and fsync'd after each change).
   * @default - in memory only
   */
  readonly stateFile?: string;
  /**
   * Delivery attempts per event before it is marked failed.
   * @default 3
   */
  readonly maxDeliveryAttempts?: number;
}
