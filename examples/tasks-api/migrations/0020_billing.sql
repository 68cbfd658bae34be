-- @framework-pro/billing's tables. Amounts are bigint minor units (cents); never float.
-- The entitlements snapshot: one row per tenant, written only by a change of a higher version (out-of-order
-- provider events converge on the latest).
CREATE TABLE fw_billing_subscriptions (
  tenant_id text PRIMARY KEY,
  plan_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused')),
  seats integer NOT NULL DEFAULT 1 CHECK (seats >= 0),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL CHECK (period_end > period_start),
  trial_end timestamptz,
  provider_customer_id text,
  provider_subscription_id text,
  version bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fw_billing_subscriptions_customer ON fw_billing_subscriptions (provider_customer_id) WHERE provider_customer_id IS NOT NULL;

-- Every version of a tenant's subscription, whatever order it arrived in: proration reads the plan and seats in
-- force at each second of a period from here.
CREATE TABLE fw_billing_subscription_changes (
  tenant_id text NOT NULL,
  version bigint NOT NULL,
  plan_id text NOT NULL,
  status text NOT NULL,
  seats integer NOT NULL CHECK (seats >= 0),
  effective_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, version)
);
CREATE INDEX fw_billing_subscription_changes_effective ON fw_billing_subscription_changes (tenant_id, effective_at);

-- Usage: the dedup key is part of the event row, written by the same INSERT (ON CONFLICT DO NOTHING), never
-- claimed before. invoice_id is set when a period close counts the event.
CREATE TABLE fw_billing_usage_events (
  id bigserial PRIMARY KEY,
  tenant_id text NOT NULL,
  meter text NOT NULL,
  quantity bigint NOT NULL CHECK (quantity >= 0),
  idempotency_key text NOT NULL,
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  invoice_id uuid,
  UNIQUE (tenant_id, meter, idempotency_key)
);
CREATE INDEX fw_billing_usage_events_open ON fw_billing_usage_events (tenant_id, meter, occurred_at) WHERE invoice_id IS NULL;

-- What a closed period counted per meter (late events from earlier periods included, with their count): what the
-- invoice's usage lines and the provider's meter events are made from. pushed_at: sent to the provider.
CREATE TABLE fw_billing_usage_aggregates (
  tenant_id text NOT NULL,
  meter text NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  quantity bigint NOT NULL,
  late_quantity bigint NOT NULL DEFAULT 0,
  invoice_id uuid NOT NULL,
  pushed_at timestamptz,
  PRIMARY KEY (tenant_id, meter, period_start)
);

-- Credits granted to a tenant; a period close uses them (oldest first) up to the invoice's subtotal.
CREATE TABLE fw_billing_credits (
  id bigserial PRIMARY KEY,
  tenant_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  invoice_id uuid
);
CREATE INDEX fw_billing_credits_open ON fw_billing_credits (tenant_id, id) WHERE invoice_id IS NULL;

-- One invoice per tenant and period: closing a period twice finds the first.
CREATE TABLE fw_billing_invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL,
  number text NOT NULL UNIQUE,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  currency text NOT NULL,
  plan_id text NOT NULL,
  subtotal bigint NOT NULL,
  credits bigint NOT NULL CHECK (credits <= 0),
  total bigint NOT NULL CHECK (total = subtotal + credits),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'void')),
  provider_invoice_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, period_start)
);

CREATE TABLE fw_billing_invoice_lines (
  invoice_id uuid NOT NULL REFERENCES fw_billing_invoices (id) ON DELETE CASCADE,
  position integer NOT NULL,
  tenant_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('base', 'seats', 'usage', 'proration', 'credit')),
  description text NOT NULL,
  quantity bigint NOT NULL,
  unit_amount text,
  amount bigint NOT NULL,
  plan_id text,
  meter text,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  note text,
  PRIMARY KEY (invoice_id, position)
);

-- Provider webhook events already applied (provider + event id): a replayed event is applied once. Global, not a
-- tenant table (an event is recorded before its tenant is known), hence "tenant" and not tenant_id.
CREATE TABLE fw_billing_provider_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  tenant text,
  received_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz,
  PRIMARY KEY (provider, event_id)
);

ALTER TABLE fw_billing_subscriptions ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_subscriptions_tenant_id_idx ON fw_billing_subscriptions (tenant_id);
ALTER TABLE fw_billing_subscriptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_subscriptions FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_subscriptions USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_billing_subscription_changes ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_subscription_changes_tenant_id_idx ON fw_billing_subscription_changes (tenant_id);
ALTER TABLE fw_billing_subscription_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_subscription_changes FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_subscription_changes USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_billing_usage_events ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_usage_events_tenant_id_idx ON fw_billing_usage_events (tenant_id);
ALTER TABLE fw_billing_usage_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_usage_events FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_usage_events USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_billing_usage_aggregates ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_usage_aggregates_tenant_id_idx ON fw_billing_usage_aggregates (tenant_id);
ALTER TABLE fw_billing_usage_aggregates ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_usage_aggregates FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_usage_aggregates USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_billing_credits ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_credits_tenant_id_idx ON fw_billing_credits (tenant_id);
ALTER TABLE fw_billing_credits ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_credits FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_credits USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_billing_invoices ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_invoices_tenant_id_idx ON fw_billing_invoices (tenant_id);
ALTER TABLE fw_billing_invoices ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_invoices FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_invoices USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_billing_invoice_lines ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_billing_invoice_lines_tenant_id_idx ON fw_billing_invoice_lines (tenant_id);
ALTER TABLE fw_billing_invoice_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_invoice_lines FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_billing_invoice_lines USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

-- down
DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_invoice_lines;
ALTER TABLE fw_billing_invoice_lines NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_invoice_lines DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_invoice_lines_tenant_id_idx;
ALTER TABLE fw_billing_invoice_lines ALTER COLUMN tenant_id DROP DEFAULT;

DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_invoices;
ALTER TABLE fw_billing_invoices NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_invoices DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_invoices_tenant_id_idx;
ALTER TABLE fw_billing_invoices ALTER COLUMN tenant_id DROP DEFAULT;

DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_credits;
ALTER TABLE fw_billing_credits NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_credits DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_credits_tenant_id_idx;
ALTER TABLE fw_billing_credits ALTER COLUMN tenant_id DROP DEFAULT;

DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_usage_aggregates;
ALTER TABLE fw_billing_usage_aggregates NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_usage_aggregates DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_usage_aggregates_tenant_id_idx;
ALTER TABLE fw_billing_usage_aggregates ALTER COLUMN tenant_id DROP DEFAULT;

DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_usage_events;
ALTER TABLE fw_billing_usage_events NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_usage_events DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_usage_events_tenant_id_idx;
ALTER TABLE fw_billing_usage_events ALTER COLUMN tenant_id DROP DEFAULT;

DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_subscription_changes;
ALTER TABLE fw_billing_subscription_changes NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_subscription_changes DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_subscription_changes_tenant_id_idx;
ALTER TABLE fw_billing_subscription_changes ALTER COLUMN tenant_id DROP DEFAULT;

DROP POLICY IF EXISTS fw_tenant_isolation ON fw_billing_subscriptions;
ALTER TABLE fw_billing_subscriptions NO FORCE ROW LEVEL SECURITY;
ALTER TABLE fw_billing_subscriptions DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS fw_billing_subscriptions_tenant_id_idx;
ALTER TABLE fw_billing_subscriptions ALTER COLUMN tenant_id DROP DEFAULT;

DROP TABLE fw_billing_provider_events;
DROP TABLE fw_billing_invoice_lines;
DROP TABLE fw_billing_invoices;
DROP TABLE fw_billing_credits;
DROP TABLE fw_billing_usage_aggregates;
DROP TABLE fw_billing_usage_events;
DROP TABLE fw_billing_subscription_changes;
DROP TABLE fw_billing_subscriptions;
