import type { Channel } from '../providers/provider.js';

/**
 * Where a row is: `queued` until claimed, `sending` while claimed, then `sent` (and `delivered` / `bounced` /
 * `complained` from provider events), `skipped` (the user's preferences leave its channel out), `suppressed` (the
 * address is on the suppression list) or `failed`.
 */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'bounced' | 'complained' | 'skipped' | 'suppressed' | 'failed';

/** What the delivery log records: a status change, or `retry` (an attempt failed and another is scheduled). */
export type DeliveryLogStatus = 'queued' | 'sent' | 'delivered' | 'bounced' | 'complained' | 'skipped' | 'suppressed' | 'failed' | 'retry';

/** The outbox table, as the migration creates it. */
export const OUTBOX_TABLE = 'fw_notify_outbox';
/** The delivery-log table, as the migration creates it. */
export const DELIVERY_LOG_TABLE = 'fw_notify_delivery_log';

/** A row of the outbox. */
export interface OutboxRow {
  readonly id: string;
  readonly channel: Channel;
  readonly recipient: string;
  /** The recipient's user id, whose preferences the dispatcher applies (`null`: no preferences, e.g. a guest). */
  readonly user_id: string | null;
  readonly template: string;
  readonly data: Record<string, unknown>;
  readonly category: string;
  readonly locale: string | null;
  readonly idempotency_key: string | null;
  readonly status: OutboxStatus;
  readonly attempts: number;
  readonly next_attempt_at: Date;
  readonly provider: string | null;
  readonly provider_message_id: string | null;
  readonly last_error: string | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** A row of the delivery log. */
export interface DeliveryLogEntry {
  readonly id: string;
  readonly outbox_id: string;
  readonly status: DeliveryLogStatus;
  readonly attempt: number;
  readonly provider: string | null;
  readonly provider_message_id: string | null;
  readonly detail: string | null;
  readonly at: Date;
}
