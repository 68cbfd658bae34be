/** The table of received provider events: one row per event id, written in the transaction that applies it. */
export const WEBHOOK_EVENTS_TABLE = 'fw_billing_webhook_events';

/**
 * `@framework-pro/billing`'s webhook log. Copy it into the app's migrations folder under its next number (as the
 * example's `migrations/0020_billing_webhook_events.sql`; a test keeps the copy equal). It has no `tenant_id`: event
 * ids are the provider's, global to the account, and the webhook route runs before any tenant is known.
 */
export const BILLING_WEBHOOK_EVENTS_MIGRATION = `-- @framework-pro/billing: provider events already applied (a redelivery is acknowledged, not applied again).
CREATE TABLE ${WEBHOOK_EVENTS_TABLE} (
  provider text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  provider_type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX ${WEBHOOK_EVENTS_TABLE}_applied_at ON ${WEBHOOK_EVENTS_TABLE} (applied_at);

-- down
DROP TABLE ${WEBHOOK_EVENTS_TABLE};
`;
