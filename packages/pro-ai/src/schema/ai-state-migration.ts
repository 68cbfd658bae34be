/**
 * The tables of agents' conversation memory and of token budgets (with the `-- down` section the migrator reads).
 * The app copies this text into its own migrations folder under its next number (`fw migrate create ai_state`, then
 * paste `aiStateMigrationSql()`): the app keeps one ordered history, and the package never changes an app's schema
 * behind its back.
 */
export const AI_STATE_MIGRATION_SQL = `-- @framework-pro/ai's tables: agents' conversation memory (one row per message) and token budget counters.
-- Copy this file into the app's migrations folder under its next number.
CREATE TABLE fw_ai_conversation_messages (
  id bigserial PRIMARY KEY,
  -- '' when the app has no tenants; a user's conversations are theirs within their tenant.
  tenant text NOT NULL,
  user_id text NOT NULL,
  conversation text NOT NULL,
  message jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fw_ai_conversation_messages_owner ON fw_ai_conversation_messages (tenant, user_id, conversation, id);

CREATE TABLE fw_ai_token_usage (
  subject text NOT NULL,
  window_start timestamptz NOT NULL,
  tokens bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject, window_start)
);

-- down
DROP TABLE fw_ai_token_usage;
DROP TABLE fw_ai_conversation_messages;
`;

/** The SQL of the memory and budget tables (`AI_STATE_MIGRATION_SQL`). */
export function aiStateMigrationSql(): string {
  return AI_STATE_MIGRATION_SQL;
}

/** `tenantTable` of `@framework-pro/tenancy` (passed in, so apps without tenancy never load that package). */
export type AiStateTenantTableSql = (table: string, options: { readonly column?: string; readonly addColumn?: boolean; readonly backfillTenant?: string }) => { readonly up: string; readonly down: string };

/**
 * The second migration of the memory and budget tables, for apps with `@framework-pro/tenancy`: both become tenant
 * tables under its row-level security, like the vector store's. `fw_ai_conversation_messages.tenant` becomes the
 * policy's column (filled from the transaction's tenant); `fw_ai_token_usage` gets `tenant_id` (rows written before
 * are `''`: no tenant sees them) and its primary key includes it, under the same constraint name, so a subject's
 * counter is per tenant. Copy it into the app's migrations after `aiStateMigrationSql()`'s; never edit that one.
 */
export function aiStateTenancyMigrationSql(tenantTable: AiStateTenantTableSql): string {
  const memory = tenantTable('fw_ai_conversation_messages', { column: 'tenant', addColumn: false });
  const usage = tenantTable('fw_ai_token_usage', { backfillTenant: '' });
  const key = 'ALTER TABLE fw_ai_token_usage DROP CONSTRAINT fw_ai_token_usage_pkey, ADD CONSTRAINT fw_ai_token_usage_pkey PRIMARY KEY';
  return [
    '-- @framework-pro/ai: the memory and budget tables under @framework-pro/tenancy\'s row-level security.',
    memory.up.trim(),
    usage.up.trim(),
    `${key} (tenant_id, subject, window_start);`,
    '',
    '-- down',
    '-- Fails while one subject has counters in several tenants of one window: delete or merge them first.',
    `${key} (subject, window_start);`,
    usage.down.trim(),
    memory.down.trim(),
    '',
  ].join('\n');
}
