-- @framework/notify: the outbox row carries the recipient's user id, so the dispatcher applies their preferences
-- (opt-out, channel choice; a critical category bypasses them) when it delivers; the statuses of a skipped or
-- suppressed message and of a complaint. Copy this file into the app's migrations folder after the outbox and the
-- channels migrations (its checksum is recorded: never edit a copy that was applied).
ALTER TABLE fw_notify_outbox ADD COLUMN user_id text;
ALTER TABLE fw_notify_outbox DROP CONSTRAINT fw_notify_outbox_status_check;
ALTER TABLE fw_notify_outbox ADD CONSTRAINT fw_notify_outbox_status_check
  CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'skipped', 'suppressed', 'failed'));
ALTER TABLE fw_notify_delivery_log DROP CONSTRAINT fw_notify_delivery_log_status_check;
ALTER TABLE fw_notify_delivery_log ADD CONSTRAINT fw_notify_delivery_log_status_check
  CHECK (status IN ('queued', 'sent', 'delivered', 'bounced', 'complained', 'skipped', 'suppressed', 'failed', 'retry'));

-- down
DELETE FROM fw_notify_delivery_log WHERE status IN ('complained', 'skipped', 'suppressed');
UPDATE fw_notify_outbox SET status = 'delivered' WHERE status = 'complained';
UPDATE fw_notify_outbox SET status = 'failed' WHERE status IN ('skipped', 'suppressed');
ALTER TABLE fw_notify_delivery_log DROP CONSTRAINT fw_notify_delivery_log_status_check;
ALTER TABLE fw_notify_delivery_log ADD CONSTRAINT fw_notify_delivery_log_status_check
  CHECK (status IN ('queued', 'sent', 'delivered', 'bounced', 'failed', 'retry'));
ALTER TABLE fw_notify_outbox DROP CONSTRAINT fw_notify_outbox_status_check;
ALTER TABLE fw_notify_outbox ADD CONSTRAINT fw_notify_outbox_status_check
  CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'bounced', 'failed'));
ALTER TABLE fw_notify_outbox DROP COLUMN user_id;
