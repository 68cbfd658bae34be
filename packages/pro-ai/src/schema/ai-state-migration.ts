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
