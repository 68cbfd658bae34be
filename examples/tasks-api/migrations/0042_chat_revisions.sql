-- @framework-pro/chat, step 2 of 2: revisions and the digest watermark. Copy this file into the app's migrations folder after step 1.
ALTER TABLE fw_chat_rooms ADD COLUMN last_rev integer NOT NULL DEFAULT 0;
ALTER TABLE fw_chat_messages ADD COLUMN rev integer NOT NULL DEFAULT 0;
-- Messages written before this step: their seq is a revision in the same order, and every later change is after it.
UPDATE fw_chat_messages SET rev = seq;
UPDATE fw_chat_rooms SET last_rev = last_seq;
-- Resume reads one room's messages changed after a revision.
CREATE INDEX fw_chat_messages_rev ON fw_chat_messages (room_id, rev);
-- The unread digest: the last message seq a digest told the member of (0: none). A digest covers what is past both
-- this and the read watermark, so no message is told of twice.
ALTER TABLE fw_chat_members ADD COLUMN digested_seq integer NOT NULL DEFAULT 0;

-- down
DROP INDEX IF EXISTS fw_chat_messages_rev;
ALTER TABLE fw_chat_members DROP COLUMN IF EXISTS digested_seq;
ALTER TABLE fw_chat_messages DROP COLUMN IF EXISTS rev;
ALTER TABLE fw_chat_rooms DROP COLUMN IF EXISTS last_rev;
