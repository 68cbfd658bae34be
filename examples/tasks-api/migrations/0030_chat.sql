-- @framework-pro/chat's tables. Copy this file into the app's migrations folder under its next number.
CREATE TABLE fw_chat_rooms (
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
);

-- Every table belongs to a tenant, and PostgreSQL enforces it (@framework-pro/tenancy's tenantTable).
ALTER TABLE fw_chat_rooms ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE fw_chat_members ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE fw_chat_messages ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE fw_chat_reactions ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE fw_chat_presence ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE fw_chat_rooms ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_chat_rooms_tenant_id_idx ON fw_chat_rooms (tenant_id);
ALTER TABLE fw_chat_rooms ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_chat_rooms FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_chat_rooms USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_chat_members ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_chat_members_tenant_id_idx ON fw_chat_members (tenant_id);
ALTER TABLE fw_chat_members ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_chat_members FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_chat_members USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_chat_messages ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_chat_messages_tenant_id_idx ON fw_chat_messages (tenant_id);
ALTER TABLE fw_chat_messages ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_chat_messages FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_chat_messages USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_chat_reactions ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_chat_reactions_tenant_id_idx ON fw_chat_reactions (tenant_id);
ALTER TABLE fw_chat_reactions ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_chat_reactions FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_chat_reactions USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');

ALTER TABLE fw_chat_presence ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant_id', true);
CREATE INDEX fw_chat_presence_tenant_id_idx ON fw_chat_presence (tenant_id);
ALTER TABLE fw_chat_presence ENABLE ROW LEVEL SECURITY;
ALTER TABLE fw_chat_presence FORCE ROW LEVEL SECURITY;
CREATE POLICY fw_tenant_isolation ON fw_chat_presence USING (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on') WITH CHECK (tenant_id = current_setting('app.tenant_id', true) OR current_setting('app.all_tenants', true) = 'on');


-- down
DROP TABLE IF EXISTS fw_chat_presence;
DROP TABLE IF EXISTS fw_chat_reactions;
DROP TABLE IF EXISTS fw_chat_messages;
DROP TABLE IF EXISTS fw_chat_members;
DROP TABLE IF EXISTS fw_chat_rooms;
