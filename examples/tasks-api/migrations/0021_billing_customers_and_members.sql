-- Billing in the example: each tenant's customer at the payment provider (created by POST /billing/subscribe), and
-- the tenant's members (POST /members invites one; the plan's `seats` limit counts them). Both are tenant tables
-- (row-level security, as tenantTable(...) writes it).
CREATE TABLE billing_customers (
  tenant_id text PRIMARY KEY,
  customer_id text NOT NULL UNIQUE,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE billing_customers ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX billing_customers_tenant_id_idx ON billing_customers (tenant_id);
ALTER TABLE billing_customers ENABLE ROW LEVEL SECURITY;
ALTER TABLE billing_customers FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON billing_customers USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

CREATE TABLE members (
  tenant_id text NOT NULL,
  email text NOT NULL,
  invited_by text NOT NULL,
  invited_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, email)
);
ALTER TABLE members ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX members_tenant_id_idx ON members (tenant_id);
ALTER TABLE members ENABLE ROW LEVEL SECURITY;
ALTER TABLE members FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON members USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

-- down
DROP TABLE members;
DROP TABLE billing_customers;
