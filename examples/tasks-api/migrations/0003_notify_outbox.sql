-- @framework/notify's tables: the outbox (one row per recipient and channel, written in the business transaction)
-- and the delivery log (every status change, with the provider's ids). Copy this file into the app's migrations
-- folder under its next number (the app keeps one ordered history; deploys run it before new code).
CREATE TABLE fw_notify_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  channel text NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp', 'push')),
  recipient text NOT NULL,
  template text NOT NULL,
  data jsonb NOT NULL,
  category text NOT NULL,
  locale text,
  idempotency_key text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'bounced', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  provider text,
  provider_message_id text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The caller's idempotency key: the same key sends once per channel, however often the business code runs.
CREATE UNIQUE INDEX fw_notify_outbox_idempotency ON fw_notify_outbox (idempotency_key, channel) WHERE idempotency_key IS NOT NULL;
-- What the dispatcher claims: rows still to send (or whose claim expired), oldest first.
CREATE INDEX fw_notify_outbox_due ON fw_notify_outbox (next_attempt_at) WHERE status IN ('queued', 'sending');
CREATE INDEX fw_notify_outbox_provider_message ON fw_notify_outbox (provider_message_id) WHERE provider_message_id IS NOT NULL;

CREATE TABLE fw_notify_delivery_log (
  id bigserial PRIMARY KEY,
  outbox_id uuid NOT NULL REFERENCES fw_notify_outbox (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('queued', 'sent', 'delivered', 'bounced', 'failed', 'retry')),
  attempt integer NOT NULL DEFAULT 0,
  provider text,
  provider_message_id text,
  detail text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fw_notify_delivery_log_outbox ON fw_notify_delivery_log (outbox_id, id);

-- down
DROP TABLE fw_notify_delivery_log;
DROP TABLE fw_notify_outbox;
