import { tenantTable } from '@framework-pro/tenancy';
import { ChatConfigError } from '../errors.js';

/** The package's tables, in creation order (a message's reactions after the message, ...). */
export const CHAT_TABLES = ['fw_chat_rooms', 'fw_chat_members', 'fw_chat_messages', 'fw_chat_reactions', 'fw_chat_presence'] as const;

const TABLES_SQL = `CREATE TABLE fw_chat_rooms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text,
  kind text NOT NULL CHECK (kind IN ('group', 'direct')),
  name text,
  -- The resource the room discusses ('task:<id>'): at most one room per resource and tenant.
  resource text,
  -- A direct room's two members, sorted and joined: at most one direct room per pair and tenant.
  direct_key text,
  -- The room's last message sequence number. Sends take it under the row's lock, so numbers commit in order and
  -- without gaps: a reader that resumes after a number never skips a message still being written.
  last_seq integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX fw_chat_rooms_resource ON fw_chat_rooms (tenant_id, resource) WHERE resource IS NOT NULL;
CREATE UNIQUE INDEX fw_chat_rooms_direct ON fw_chat_rooms (tenant_id, direct_key) WHERE direct_key IS NOT NULL;

CREATE TABLE fw_chat_members (
  room_id uuid NOT NULL REFERENCES fw_chat_rooms (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  tenant_id text,
  role text NOT NULL CHECK (role IN ('owner', 'moderator', 'member')),
  -- The read watermark: the sequence number of the last message the member has read. Unread = messages after it.
  last_read_seq integer NOT NULL DEFAULT 0,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (room_id, user_id)
);
CREATE INDEX fw_chat_members_user ON fw_chat_members (user_id);

CREATE TABLE fw_chat_messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  room_id uuid NOT NULL REFERENCES fw_chat_rooms (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  tenant_id text,
  sender text NOT NULL,
  client_msg_id text NOT NULL,
  body text NOT NULL,
  -- Storage keys of the files the sender uploaded (the app's bucket): ["<tenant>/chat/...", ...].
  attachments jsonb NOT NULL DEFAULT '[]',
  parent_id bigint REFERENCES fw_chat_messages (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  edited_at timestamptz,
  deleted_at timestamptz,
  -- A retried send (same client message id) finds the message it already wrote.
  UNIQUE (room_id, sender, client_msg_id),
  -- History, resume and unread counts read a range of one room's sequence numbers.
  UNIQUE (room_id, seq)
);
-- The rate limit counts a sender's messages of the last minute.
CREATE INDEX fw_chat_messages_sender_recent ON fw_chat_messages (sender, created_at);

CREATE TABLE fw_chat_reactions (
  message_id bigint NOT NULL REFERENCES fw_chat_messages (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  emoji text NOT NULL,
  tenant_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (message_id, user_id, emoji)
);

-- Who is online in a room (heartbeats with a TTL) and who is typing: ephemeral, one row per member and room.
CREATE TABLE fw_chat_presence (
  room_id uuid NOT NULL REFERENCES fw_chat_rooms (id) ON DELETE CASCADE,
  user_id text NOT NULL,
  tenant_id text,
  status text NOT NULL CHECK (status IN ('online', 'away')),
  expires_at timestamptz NOT NULL,
  typing_until timestamptz,
  PRIMARY KEY (room_id, user_id)
);`;

function up(): string {
  const rls = CHAT_TABLES.map((table) => tenantTable(table, { addColumn: false }).up).join('\n');
  const notNull = CHAT_TABLES.map((table) => `ALTER TABLE ${table} ALTER COLUMN tenant_id SET NOT NULL;`).join('\n');
  return `${TABLES_SQL}\n\n-- Every table belongs to a tenant, and PostgreSQL enforces it (@framework-pro/tenancy's tenantTable).\n${notNull}\n${rls}`;
}

function down(): string {
  return [...CHAT_TABLES].reverse().map((table) => `DROP TABLE IF EXISTS ${table};`).join('\n');
}

/**
 * The second step: a per-room revision (every change to a room's messages takes the room's next `rev`: a send, an
 * edit, a delete, a reaction), so a client resuming after a reconnect gets what changed since its cursor, not only
 * the new messages; and each member's digest watermark (the last message an unread digest told them of). Columns
 * added to the first step's tables: an applied migration never changes (the migrator keeps each file's checksum).
 */
const REVISIONS_SQL = `ALTER TABLE fw_chat_rooms ADD COLUMN last_rev integer NOT NULL DEFAULT 0;
ALTER TABLE fw_chat_messages ADD COLUMN rev integer NOT NULL DEFAULT 0;
-- Messages written before this step: their seq is a revision in the same order, and every later change is after it.
UPDATE fw_chat_messages SET rev = seq;
UPDATE fw_chat_rooms SET last_rev = last_seq;
-- Resume reads one room's messages changed after a revision.
CREATE INDEX fw_chat_messages_rev ON fw_chat_messages (room_id, rev);
-- The unread digest: the last message seq a digest told the member of (0: none). A digest covers what is past both
-- this and the read watermark, so no message is told of twice.
ALTER TABLE fw_chat_members ADD COLUMN digested_seq integer NOT NULL DEFAULT 0;`;

const REVISIONS_DOWN = `DROP INDEX IF EXISTS fw_chat_messages_rev;
ALTER TABLE fw_chat_members DROP COLUMN IF EXISTS digested_seq;
ALTER TABLE fw_chat_messages DROP COLUMN IF EXISTS rev;
ALTER TABLE fw_chat_rooms DROP COLUMN IF EXISTS last_rev;`;

/** How many migration files the package ships (`chatMigrationSql(1)` ... `chatMigrationSql(CHAT_MIGRATION_STEPS)`). */
export const CHAT_MIGRATION_STEPS = 2;

/**
 * The chat tables (rooms, members with their read watermark, messages, reactions, presence) as migration files'
 * texts, `-- down` section included: step 1 creates the tables, step 2 adds revisions (resume with edits, deletes
 * and reactions) and the digest watermark. The app copies each, in order, under its next numbers. The app copies it into its migrations folder under its next number: the app keeps
 * one ordered history, and the package never changes an app's schema behind its back. Every table is a tenant table
 * (row-level security), so the app needs `@framework-pro/tenancy`'s role (`appRoleSql()`) in an earlier migration.
 */
export function chatMigrationSql(step = 1): string {
  if (step === 2) return `-- @framework-pro/chat, step 2 of ${CHAT_MIGRATION_STEPS}: revisions and the digest watermark. Copy this file into the app's migrations folder after step 1.\n${REVISIONS_SQL}\n\n-- down\n${REVISIONS_DOWN}\n`;
  if (step !== 1) throw new ChatConfigError('FW_ERR_CHAT_INVALID_OPTIONS', `chatMigrationSql(step): step is 1 to ${CHAT_MIGRATION_STEPS}; got ${String(step)}`);
  return `-- @framework-pro/chat's tables. Copy this file into the app's migrations folder under its next number.\n${up()}\n\n-- down\n${down()}\n`;
}
