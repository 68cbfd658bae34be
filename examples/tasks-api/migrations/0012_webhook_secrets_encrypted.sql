-- @framework/integrations: webhook endpoints' signing secrets are stored envelope-encrypted with the vault key.
-- Secrets written before this migration move to legacy_secret (plain text) and are encrypted by the package the first
-- time a delivery reads them, or all at once by webhooks.encryptLegacySecrets(); SQL alone cannot reach the key.
ALTER TABLE fw_webhook_endpoints RENAME COLUMN secret TO legacy_secret;
ALTER TABLE fw_webhook_endpoints ALTER COLUMN legacy_secret DROP NOT NULL;
ALTER TABLE fw_webhook_endpoints ADD COLUMN secret_encrypted text;
ALTER TABLE fw_webhook_endpoints ADD CONSTRAINT fw_webhook_endpoints_secret_present CHECK (secret_encrypted IS NOT NULL OR legacy_secret IS NOT NULL);

-- down
-- SQL cannot decrypt: endpoints registered after the up migration are left without a plain-text secret (register them again).
ALTER TABLE fw_webhook_endpoints DROP CONSTRAINT fw_webhook_endpoints_secret_present;
ALTER TABLE fw_webhook_endpoints DROP COLUMN secret_encrypted;
ALTER TABLE fw_webhook_endpoints RENAME COLUMN legacy_secret TO secret;
