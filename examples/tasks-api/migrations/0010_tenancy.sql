-- Multi-tenancy (@framework-pro/tenancy): every task and task event belongs to a tenant, and PostgreSQL enforces it.
-- Requests run as fw_app (no BYPASSRLS, owns nothing) with app.tenant_id set for their transaction only; the text
-- below is what appRoleSql() and tenantTable(...) return (test/tenancy.test.ts checks it). Rows from before
-- tenancy go to the tenant "default".
DO $fw$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'fw_app') THEN
    CREATE ROLE fw_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END $fw$;
GRANT fw_app TO CURRENT_USER;
GRANT USAGE ON SCHEMA public TO fw_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO fw_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO fw_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO fw_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO fw_app;

ALTER TABLE tasks ADD COLUMN tenant_id text;
UPDATE tasks SET tenant_id = 'default';
ALTER TABLE tasks ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE tasks ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX tasks_tenant_id_idx ON tasks (tenant_id);
ALTER TABLE tasks ENABLE ROW LEVEL SECURITY;
ALTER TABLE tasks FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON tasks USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE task_events ADD COLUMN tenant_id text;
UPDATE task_events SET tenant_id = 'default';
ALTER TABLE task_events ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE task_events ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX task_events_tenant_id_idx ON task_events (tenant_id);
ALTER TABLE task_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE task_events FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON task_events USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

-- down
DROP POLICY IF EXISTS fw_tenant_isolation ON task_events;
ALTER TABLE task_events NO FORCE ROW LEVEL SECURITY;
ALTER TABLE task_events DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS task_events_tenant_id_idx;
ALTER TABLE task_events DROP COLUMN tenant_id;
DROP POLICY IF EXISTS fw_tenant_isolation ON tasks;
ALTER TABLE tasks NO FORCE ROW LEVEL SECURITY;
ALTER TABLE tasks DISABLE ROW LEVEL SECURITY;
DROP INDEX IF EXISTS tasks_tenant_id_idx;
ALTER TABLE tasks DROP COLUMN tenant_id;
