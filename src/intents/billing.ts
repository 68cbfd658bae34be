/** How often a plan's flat and per-seat prices are charged. */
export enum BillingInterval {
  MONTH = 'month',
  YEAR = 'year',
}

/** What a price charges for. */
export enum PriceKind {
  /** A fixed amount per period (`amount`). */
  FLAT = 'flat',
  /** An amount per seat per period (`unitAmount`, `includedSeats`). */
  PER_SEAT = 'per_seat',
  /** Usage of a meter on graduated tiers (`meter`, `tiers`). */
  METERED = 'metered',
}

/** One step of a graduated price (core's `PriceTier`). */
export interface PriceTier {
  /** The last unit of this tier. @default - no end: the last tier (`'inf'` in `fw.config.ts`) */
  readonly upTo?: number;
  /** Price of each unit in minor units (cents): a whole number, or a decimal string for fractions (`'0.1'`). */
  readonly unitAmount: string;
  /** Charged once when any unit falls in this tier, in minor units. @default 0 */
  readonly flatAmount?: number;
}

/** One price of a plan (core's `Price`; the fields of its kind). Amounts are whole minor units (cents). */
export interface PlanPrice {
  readonly kind: PriceKind;
  /** `FLAT`: the amount per period. @default - none (required for FLAT) */
  readonly amount?: number;
  /** `PER_SEAT`: the amount per seat. @default - none (required for PER_SEAT) */
  readonly unitAmount?: number;
  /** `PER_SEAT`: seats included before any is charged. @default 0 */
  readonly includedSeats?: number;
  /** `METERED`: the meter `billing.track` counts. @default - none (required for METERED) */
  readonly meter?: string;
  /** `METERED`: graduated tiers, the last without `upTo`. @default - none (required for METERED) */
  readonly tiers?: PriceTier[];
}

/** One feature of a plan (core's `FeatureLimit`, keyed by `name`): give one of `enabled`, `limit` or `included`. */
export interface PlanFeature {
  /** The feature (`seats`, `projects`, `api_calls`). */
  readonly name: string;
  /** On or off. @default - set by `limit` or `included` instead */
  readonly enabled?: boolean;
  /** A hard limit (`seats: 5`). @default - none */
  readonly limit?: number;
  /** A metered allowance: units included per period. @default - none */
  readonly included?: number;
  /** With `included`: the price of each unit past it, in minor units (`'0.1'`). @default - none: usage past `included` is refused */
  readonly overage?: string;
}

/** One plan (core's `PlanDefinition`, keyed by `id`). */
export interface BillingPlan {
  /** The plan id (`free`, `pro`). */
  readonly id: string;
  /** Lower-case ISO 4217 code (`usd`). */
  readonly currency: string;
  /** Shown on invoices. @default - the id */
  readonly name?: string;
  /** @default BillingInterval.MONTH */
  readonly interval?: BillingInterval;
  /** @default 0 */
  readonly trialDays?: number;
  /** @default - none (a free plan) */
  readonly prices?: PlanPrice[];
  /** @default - none */
  readonly features?: PlanFeature[];
}

/** `billing` of `fw.config.ts` (core's `BillingConfig`): the app's plans for `@framework-pro/billing`. */
export interface BillingOptions {
  /** Plans, cheapest first (the upgrade path). */
  readonly plans: BillingPlan[];
  /** The plan of a tenant without a subscription. */
  readonly defaultPlan: string;
  /** Seconds after a period's end during which late usage counts in it. @default 3600 */
  readonly graceSeconds?: number;
}
