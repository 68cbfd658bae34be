import * as c from './codec.js';
import type { ConfigProblem } from '../errors.js';
import { PRESET_NAMES, type PresetName } from '../presets/presets.js';
import { settingsOverridesCodec, type SettingsOverrides } from '../presets/stage-settings.js';
import { TENANT_ID_PATTERN } from '../naming/tenant.js';

/** One stage's environment (`config/dev.ts`, `config/prod.ts`): a preset plus any overrides. */
export interface EnvironmentConfig {
  readonly preset: PresetName;
  /** Any preset field, replaced for this stage. @default {} */
  readonly overrides?: SettingsOverrides;
  /** Local sign-in for this stage (`fw dev` only; deployed, users live in the Cognito user pool). */
  readonly auth?: EnvironmentAuthConfig;
}

/** A user `fw dev` creates under `.fw/` on start, so the login page has someone to sign in. */
export interface SeededUser {
  /** The name typed on the login page (Cognito's `cognito:username`). */
  readonly username: string;
  /** Hashed (scrypt) before it is stored; a dev password, never a real one. */
  readonly password: string;
  /** Role names from `config/security.ts`; the user's `cognito:groups`. @default [] */
  readonly roles?: readonly string[];
  readonly email?: string;
  /**
   * The user's tenant in a multi-tenant app: their tokens carry it as `custom:tenant_id` (the Cognito custom
   * attribute the tenancy middleware reads). @default - none
   */
  readonly tenant?: string;
}

/** `auth` of a stage's environment. */
export interface EnvironmentAuthConfig {
  /** Users seeded into the dev issuer's user store (`.fw/dev/auth/users.json`). @default [] */
  readonly users?: readonly SeededUser[];
}

const seededUserCodec = c.struct<SeededUser>('a user { username, password, roles, email, tenant }', {
  username: c.required(c.pattern('a username of 1 to 128 letters, digits or "._@+-"', /^[A-Za-z0-9._@+-]{1,128}$/)),
  password: c.required(c.pattern('a password of 8 to 256 characters', /^[\s\S]{8,256}$/)),
  roles: c.optional(c.array(c.pattern('a role name', /^[A-Za-z0-9_-]{1,64}$/))),
  email: c.optional(c.pattern('an email address', /^[^\s@]+@[^\s@]+$/)),
  tenant: c.optional(c.pattern('a tenant id of 1 to 64 letters, digits, "-" or "_"', TENANT_ID_PATTERN)),
});

export const environmentConfigCodec = c.struct<EnvironmentConfig>('an environment config { preset, overrides }', {
  preset: c.required(c.oneOf(PRESET_NAMES)),
  overrides: c.optional(settingsOverridesCodec),
  auth: c.optional(c.struct<EnvironmentAuthConfig>('an auth config { users }', { users: c.optional(c.array(seededUserCodec)) })),
});

/**
 * A seeded user's roles must be declared in `config/security.ts` (a typo would sign the user in with fewer scopes
 * than meant), and usernames are unique. Runs on input that may not have passed the codec: it skips what it cannot read.
 */
export function checkSeededUsers(env: unknown, roles: Readonly<Record<string, unknown>>, root: string): ConfigProblem[] {
  const users = (env as { auth?: { users?: unknown } } | undefined)?.auth?.users;
  if (!Array.isArray(users)) return [];
  const declared = Object.keys(roles);
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  users.forEach((user: unknown, index) => {
    if (!c.isPlainObject(user)) return;
    const at = `${root}.auth.users[${index}]`;
    if (typeof user.username === 'string') {
      if (seen.has(user.username)) problems.push({ code: 'FW_ERR_CONFIG_INVALID_VALUE', path: `${at}.username`, message: `username ${JSON.stringify(user.username)} is seeded twice; keep one entry per user` });
      seen.add(user.username);
    }
    if (!Array.isArray(user.roles)) return;
    user.roles.forEach((role: unknown, r) => {
      if (typeof role !== 'string' || Object.hasOwn(roles, role)) return;
      const near = c.closestName(role, declared);
      problems.push({
        code: 'FW_ERR_CONFIG_UNDECLARED_ROLE',
        path: `${at}.roles[${r}]`,
        message: `role ${JSON.stringify(role)} is not declared in security.roles (declared: ${declared.map((d) => JSON.stringify(d)).join(', ') || 'none'}); ${near ? `did you mean ${JSON.stringify(near)}? Otherwise add` : 'add'} it there or remove it here`,
      });
    });
  });
  return problems;
}
