/**
 * `service.auth`: the app's users and machine clients, the same calls on Cognito deployed and on `fw dev`'s issuer
 * locally. Usernames, roles and app-client names are those of `config/security.ts`.
 */
export interface AuthService extends UserAdmin {
  /**
   * An access token of app client `clientName` (its `client_credentials` flow) for calling another service. Cached
   * and renewed before it expires (one minute, or a tenth of its life when shorter); concurrent callers share one
   * request to the token endpoint.
   * @param scopes - the scopes to ask for (bare `tasks:read` or prefixed `tasks-api/tasks:read`); @default - every scope of the client
   */
  machineToken(clientName: string, scopes?: readonly string[]): Promise<string>;
}

/** The user administration of `service.auth` (also what `fw auth users` runs). */
export interface UserAdmin {
  /**
   * Creates a user in the given roles. With `temporaryPassword`, no message is sent: hand the password over yourself
   * (the user sets a new one at first sign-in on Cognito). With `invite: true`, the identity provider generates the
   * temporary password and sends the invitation (Cognito's invitation email; `fw dev` prints it in its console).
   */
  createUser(input: CreateUserInput): Promise<AuthUser>;
  /** The user, or undefined when there is none of that name. */
  getUser(username: string): Promise<AuthUser | undefined>;
  /** One page of users; pass `nextCursor` back as `cursor` for the next page (absent on the last one). */
  listUsers(options?: ListUsersOptions): Promise<UserPage>;
  /**
   * Confirms a user who signed up and has not entered their verification code (Cognito's AdminConfirmSignUp): they
   * can sign in. For support staff helping someone whose code never arrived or expired. Their email address stays
   * unverified (Cognito's confirmation does not verify it). A user of any other status is `NothingToConfirmError`.
   */
  confirmUser(username: string): Promise<void>;
  /** The user can no longer sign in or refresh tokens. */
  disableUser(username: string): Promise<void>;
  enableUser(username: string): Promise<void>;
  deleteUser(username: string): Promise<void>;
  /** Makes the user's roles exactly `roles` (only the differences are applied); every role must be declared. */
  setRoles(username: string, roles: readonly string[]): Promise<void>;
  /**
   * Moves the user into `tenant` (the `custom:tenant_id` attribute), or out of any tenant with `undefined`: a user who
   * signed up alone joins the workspace they just created. An admin call: the user cannot do it themselves. Their
   * tokens carry the new tenant from their next sign-in or refresh; an access token already issued keeps the old one
   * until it expires (add `signOutEverywhere` to stop its refresh token too).
   */
  setTenant(username: string, tenant: string | undefined): Promise<void>;
  /**
   * Revokes every refresh token of the user (Cognito's AdminUserGlobalSignOut): each of their sessions ends when its
   * access token expires. Access tokens already issued stay valid until then.
   */
  signOutEverywhere(username: string): Promise<void>;
}

export type CreateUserInput = {
  readonly username: string;
  readonly email?: string;
  /** Roles declared in `config/security.ts`. @default [] */
  readonly roles?: readonly string[];
  /**
   * The user's tenant in a multi-tenant app (1 to 64 letters, digits, "-" or "_"): their access and ID tokens carry it
   * as the `custom:tenant_id` claim, which `@framework-pro/tenancy` reads. The user cannot change it; `setTenant` can.
   * @default - none (a user of no tenant)
   */
  readonly tenant?: string;
} & ({ readonly temporaryPassword: string; readonly invite?: never } | { readonly invite: true; readonly temporaryPassword?: never });

export interface ListUsersOptions {
  /** Users per page, 1 to 60 (Cognito's maximum). @default 60 */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. @default - the first page */
  readonly cursor?: string;
}

export interface UserPage {
  readonly users: readonly AuthUser[];
  /** Opaque; absent on the last page. */
  readonly nextCursor?: string;
}

/** Cognito's user statuses (`fw dev` uses the same names). */
export type UserStatus = 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'UNCONFIRMED' | 'RESET_REQUIRED' | 'ARCHIVED' | 'COMPROMISED' | 'EXTERNAL_PROVIDER' | 'UNKNOWN';

export interface AuthUser {
  readonly username: string;
  /** The user's id (`sub` in their tokens): it stays when the username, password or roles change. */
  readonly sub: string;
  readonly email?: string;
  /** The user's roles (Cognito groups), sorted. */
  readonly roles: readonly string[];
  /** The user's tenant (`custom:tenant_id`); absent for a user of no tenant. */
  readonly tenant?: string;
  readonly enabled: boolean;
  readonly status: UserStatus;
  readonly createdAt?: Date;
}

/** The highest and default page size of `listUsers` (Cognito's ListUsers limit). */
export const MAX_USERS_PER_PAGE = 60;
