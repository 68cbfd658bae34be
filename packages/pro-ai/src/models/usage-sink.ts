import { getDatabase, type Queryable } from '@framework/data';

/** The tokens one model call used, and whom they are counted against. */
export interface ModelUsage {
  /** The provider (`amazon-bedrock`, the OpenAI-compatible endpoint's name, `mock`). */
  readonly provider: string;
  readonly modelId: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** The tenant the call ran for (`currentTenant()`), when there is one. */
  readonly tenantId?: string;
  /** The user the call was made for (the `user` given to `generate`/`stream`/an agent run), when given. */
  readonly userId?: string;
}

/**
 * Where the tokens of every model call go: a billing meter, a budget, a test's list. `record` runs after the call;
 * a sink that fails is logged and does not fail the call (the answer was produced and paid for already).
 */
export interface UsageSink {
  record(usage: ModelUsage): void | Promise<void>;
}

/** The default: usage goes to the log line only. */
export const noUsageSink: UsageSink = { record: () => undefined };

/**
 * The shape of `@framework-pro/billing`'s metering call this adapter needs: a meter name, a quantity, and the tenant
 * and an idempotency key. Declared here so the ai package does not load billing unless the app wires it.
 */
export type TrackUsage = (meter: string, quantity: number, options: { readonly tenantId?: string; readonly userId?: string; readonly idempotencyKey?: string }) => unknown;

/** Options of `billingUsageSink`. */
export interface BillingUsageSinkOptions {
  /**
   * The meter the tokens are counted on; one meter for input and output together unless `outputMeter` is given.
   * @default 'ai_tokens'
   */
  readonly meter?: string;
  /**
   * A separate meter for output tokens (providers price them differently); input tokens then go to `meter`.
   * @default - none: input and output together on `meter`
   */
  readonly outputMeter?: string;
}

/**
 * Meters every call's tokens per tenant through billing's `track` (pass it: `billingUsageSink(track)`). Each
 * record gets an idempotency key of its own, so a retried metering call counts once.
 */
export function billingUsageSink(track: TrackUsage, options: BillingUsageSinkOptions = {}): UsageSink {
  const meter = options.meter ?? 'ai_tokens';
  return {
    async record(usage) {
      const key = crypto.randomUUID();
      const who = { ...(usage.tenantId === undefined ? {} : { tenantId: usage.tenantId }), ...(usage.userId === undefined ? {} : { userId: usage.userId }) };
      if (options.outputMeter) {
        if (usage.inputTokens > 0) await track(meter, usage.inputTokens, { ...who, idempotencyKey: `${key}:in` });
        if (usage.outputTokens > 0) await track(options.outputMeter, usage.outputTokens, { ...who, idempotencyKey: `${key}:out` });
      } else if (usage.totalTokens > 0) {
        await track(meter, usage.totalTokens, { ...who, idempotencyKey: key });
      }
    },
  };
}

/**
 * The part of `@framework-pro/billing`'s `Billing` that `billingTokenMeter` uses (declared here, so this package does not
 * load billing's code unless the app passes its billing object).
 */
export interface BillingTracker {
  track(tx: Queryable, input: { readonly tenant?: string; readonly meter: string; readonly quantity: number; readonly idempotencyKey: string }): Promise<unknown>;
}

/** Options of `billingTokenMeter`. */
export interface BillingTokenMeterOptions extends BillingUsageSinkOptions {
  /**
   * The database with billing's tables.
   * @default - getDatabase(): the app's only database
   */
  readonly db?: Queryable | (() => Queryable);
}

/**
 * Meters every call's tokens on the app's billing (`createBilling(...)` of `@framework-pro/billing`): one usage event
 * per call and meter for the call's tenant, counted once (its own idempotency key). The meter (`ai_tokens` unless
 * named) must be priced or limited by a plan, as billing requires.
 */
export function billingTokenMeter(billing: BillingTracker, options: BillingTokenMeterOptions = {}): UsageSink {
  const db = (): Queryable => (options.db === undefined ? getDatabase() : typeof options.db === 'function' ? options.db() : options.db);
  return billingUsageSink(
    (meter, quantity, o) => billing.track(db(), { ...(o.tenantId === undefined ? {} : { tenant: o.tenantId }), meter, quantity, idempotencyKey: o.idempotencyKey ?? crypto.randomUUID() }),
    options,
  );
}
