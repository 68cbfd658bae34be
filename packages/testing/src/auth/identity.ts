/** Who a client calls as (`app.as(...)`): a user with roles (their scopes follow), or with scopes named directly. */
export interface Identity {
  /** Roles from config/security.ts: the token carries their scopes (those the app client may request) and the roles as groups. */
  readonly roles?: readonly string[];
  /** Scopes from config/security.ts, for a token that names them directly (not with `roles`). */
  readonly scopes?: readonly string[];
  /** The user id (`sub`). @default 'local-user' */
  readonly sub?: string;
  /** The app client the token is issued to. @default - the first user client that may request the scopes */
  readonly client?: string;
  /** The user's tenant (the `custom:tenant_id` claim a multi-tenant app resolves). @default - none */
  readonly tenant?: string;
}
