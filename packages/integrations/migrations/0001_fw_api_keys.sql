-- @framework/integrations: API keys (only their HMAC-SHA-256 hash is stored) and webhook endpoints.
CREATE TABLE fw_api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  prefix text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('live', 'test')),
  hash text NOT NULL,
  owner text NOT NULL,
  -- The tenant the key acts for (@framework-pro/tenancy reads it as the caller's tenant claim); null without tenancy.
  tenant text,
  name text NOT NULL,
  scopes text[] NOT NULL,
  rate_limit_requests integer CHECK (rate_limit_requests > 0),
  rate_limit_window_seconds integer CHECK (rate_limit_window_seconds > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX fw_api_keys_owner ON fw_api_keys (owner, created_at);

CREATE TABLE fw_webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner text NOT NULL,
  url text NOT NULL,
  secret text NOT NULL,
  event_types text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fw_webhook_endpoints_owner ON fw_webhook_endpoints (owner);

-- down
DROP TABLE fw_webhook_endpoints;
DROP TABLE fw_api_keys;
