/**
 * The tables of OAuth2 connections. The app owns its migrations, so the package ships the SQL and the app puts it in a
 * migration file of its own (`migrations/0003_oauth_connections.sql`, its text is `OAUTH_CONNECTIONS_MIGRATION`).
 *
 * Tokens and PKCE verifiers are stored envelope-encrypted (text `v1.<wrapped key>.<iv>.<ciphertext>`), each bound to
 * its row's id; the pending authorizations are keyed by the SHA-256 of the state, which only the user's browser holds.
 */
export const OAUTH_CONNECTIONS_TABLE = 'oauth_connections';
export const OAUTH_PENDING_TABLE = 'oauth_pending_authorizations';

const UP = `CREATE TABLE oauth_connections (
  id text PRIMARY KEY,
  owner text NOT NULL CHECK (length(owner) BETWEEN 1 AND 200),
  provider text NOT NULL CHECK (length(provider) BETWEEN 1 AND 100),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'broken')),
  scopes text NOT NULL DEFAULT '',
  access_token text NOT NULL,
  refresh_token text,
  expires_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  refresh_lease_until timestamptz,
  broken_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (owner, provider)
);
CREATE INDEX oauth_connections_refresh_due ON oauth_connections (expires_at) WHERE status = 'active' AND refresh_token IS NOT NULL;
CREATE TABLE oauth_pending_authorizations (
  state_hash text PRIMARY KEY,
  user_id text NOT NULL,
  owner text NOT NULL,
  provider text NOT NULL,
  code_verifier text NOT NULL,
  redirect_uri text NOT NULL,
  scopes text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_pending_authorizations_expiry ON oauth_pending_authorizations (expires_at);`;

const DOWN = 'DROP TABLE oauth_pending_authorizations;\nDROP TABLE oauth_connections;';

/** The migration file's text (up, then `-- down`), as the data package's migrator reads it. */
export const OAUTH_CONNECTIONS_MIGRATION = `-- OAuth2 connections (@framework/integrations): encrypted tokens per owner and provider, pending authorizations.
${UP}

-- down
${DOWN}
`;
