-- @framework/notify: preferences, suppression list, WhatsApp customer-service windows, digest items.
CREATE TABLE IF NOT EXISTS fw_notify_preferences (
  user_id text NOT NULL,
  category text NOT NULL,
  opted_out boolean NOT NULL DEFAULT false,
  channels text[],
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, category)
);

CREATE TABLE IF NOT EXISTS fw_notify_suppressions (
  channel text NOT NULL,
  address text NOT NULL,
  reason text NOT NULL,
  detail jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel, address)
);

CREATE TABLE IF NOT EXISTS fw_notify_whatsapp_sessions (
  phone text PRIMARY KEY,
  last_inbound_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS fw_notify_digest_items (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  category text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  flushed_at timestamptz
);
CREATE INDEX IF NOT EXISTS fw_notify_digest_items_pending ON fw_notify_digest_items (category, created_at) WHERE flushed_at IS NULL;

-- down
DROP TABLE IF EXISTS fw_notify_digest_items;
DROP TABLE IF EXISTS fw_notify_whatsapp_sessions;
DROP TABLE IF EXISTS fw_notify_suppressions;
DROP TABLE IF EXISTS fw_notify_preferences;
