-- @framework/integrations: an API key acts for the tenant it was issued for (the package's fw_api_keys has the column).
ALTER TABLE fw_api_keys ADD COLUMN tenant text;

-- down
ALTER TABLE fw_api_keys DROP COLUMN tenant;
