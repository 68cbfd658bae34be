import { randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { SeededUser } from '@framework/core';
import { DevServerError } from '../../errors.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keyLength: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/** Where the dev issuer's users live: `<project>/.fw/dev/auth/users.json` (never commit `.fw/`). */
export function usersFilePath(dataDir: string): string {
  return path.join(dataDir, 'dev', 'auth', 'users.json');
}

/** A user of the dev issuer, as stored (the password only as an scrypt hash). */
export interface StoredUser {
  /** A UUID, as Cognito's `sub`; stays the same when the user's password or roles change. */
  readonly sub: string;
  readonly username: string;
  readonly email?: string;
  /** The user's tenant (`custom:tenant_id` in their tokens), from the stage config or `service.auth.createUser`. */
  readonly tenant?: string;
  readonly roles: readonly string[];
  /** `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`. */
  readonly passwordHash: string;
  /** Created from the stage config's `auth.users`: its password and roles follow the config on every start. */
  readonly seeded: boolean;
  /** False once disabled (`service.auth.disableUser`): the user can neither sign in nor refresh. @default true */
  readonly enabled?: boolean;
  /**
   * Cognito's status: `FORCE_CHANGE_PASSWORD` for a user created with a temporary password, `UNCONFIRMED` for one who
   * signed up and has not entered the code sent to their email address yet. @default 'CONFIRMED'
   */
  readonly status?: 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'UNCONFIRMED';
  /** ISO time of creation (users created by `service.auth` or `fw auth users`). @default - unknown */
  readonly createdAt?: string;
  /** Milliseconds since the epoch of the last global sign-out: refresh tokens issued before it are refused. @default - never */
  readonly signedOutAt?: number;
}

interface UsersFile {
  readonly version: 1;
  readonly users: StoredUser[];
}

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs ~128 MiB and a third of a second per login; a dev store of dev
// passwords takes N=2^14 (16 MiB, ~40 ms), the value Node documents as its default.
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, keyLength: 32 };

/** Hashes a password with scrypt and a random salt, parameters kept in the text so they can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFKC'), salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether `password` matches `passwordHash` (constant-time comparison of the hashes). */
export async function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = passwordHash.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    // A hand-edited hash with parameters scrypt refuses matches no password (a login answers 401, not 500).
    return false;
  }
}

/** What identifies one version of the users file: a write (here or by `fw auth users` in another process) changes it. */
function fileVersion(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * The dev issuer's users: a small JSON file under `.fw/`, written whole and atomically (a temporary file renamed over
 * the old one), so a crash mid-write never leaves half a file. The dev server and `fw auth users` both use it: each
 * read first checks whether the file changed on disk (a stat) and reads it again if so.
 */
export class UserStore {
  private constructor(
    private readonly file: string,
    private users: StoredUser[],
    private version: string | undefined,
  ) {}

  static open(dataDir: string): UserStore {
    const file = usersFilePath(dataDir);
    return new UserStore(file, readUsersFile(file), fileVersion(file));
  }

  /** Reads the file again when another process wrote it since. */
  private current(): StoredUser[] {
    const version = fileVersion(this.file);
    if (version !== this.version) {
      this.users = readUsersFile(this.file);
      this.version = version;
    }
    return this.users;
  }

  /**
   * Makes the stage config's users exist as declared: a seeded user's password and roles follow the config (edit the
   * config, restart, and the change applies), its `sub` stays; users not created by seeding are left alone.
   */
  async seed(users: readonly SeededUser[]): Promise<void> {
    this.current();
    let changed = false;
    for (const declared of users) {
      const existing = this.users.find((u) => u.username === declared.username);
      if (existing && !existing.seeded) continue;
      const samePassword = existing ? await verifyPassword(declared.password, existing.passwordHash) : false;
      const roles = [...(declared.roles ?? [])];
      if (existing && samePassword && existing.email === declared.email && existing.tenant === declared.tenant && existing.roles.join(',') === roles.join(',')) continue;
      const user: StoredUser = {
        sub: existing?.sub ?? randomUUID(),
        username: declared.username,
        ...(declared.email ? { email: declared.email } : {}),
        ...(declared.tenant ? { tenant: declared.tenant } : {}),
        roles,
        passwordHash: samePassword ? existing!.passwordHash : await hashPassword(declared.password),
        seeded: true,
      };
      this.users = existing ? this.users.map((u) => (u === existing ? user : u)) : [...this.users, user];
      changed = true;
    }
    if (changed || !fs.existsSync(this.file)) this.save();
  }

  /** The user whose username and password match, else undefined (the same answer for an unknown user and a wrong password). */
  async authenticate(username: string, password: string): Promise<StoredUser | undefined> {
    const user = this.current().find((u) => u.username === username);
    // An unknown user costs a hash too, so the answer's timing does not tell which usernames exist.
    const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_USER_HASH);
    // A disabled user gets the same answer as a wrong password (Cognito says so only after the password matched).
    return user && matches && user.enabled !== false ? user : undefined;
  }

  bySub(sub: string): StoredUser | undefined {
    return this.current().find((u) => u.sub === sub);
  }

  byUsername(username: string): StoredUser | undefined {
    return this.current().find((u) => u.username === username);
  }

  list(): readonly StoredUser[] {
    return this.current();
  }

  /** Adds a user; false (nothing written) when the username is taken. */
  add(user: StoredUser): boolean {
    if (this.current().some((u) => u.username === user.username)) return false;
    this.users = [...this.users, user];
    this.save();
    return true;
  }

  /** Replaces the user `username` by `change(user)`; false when there is no such user. */
  update(username: string, change: (user: StoredUser) => StoredUser): boolean {
    const existing = this.current().find((u) => u.username === username);
    if (!existing) return false;
    this.users = this.users.map((u) => (u === existing ? change(u) : u));
    this.save();
    return true;
  }

  /** Deletes the user `username`; false when there is no such user. */
  remove(username: string): boolean {
    const remaining = this.current().filter((u) => u.username !== username);
    if (remaining.length === this.users.length) return false;
    this.users = remaining;
    this.save();
    return true;
  }

  private save(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.${randomUUID()}.tmp`;
    const file: UsersFile = { version: 1, users: this.users };
    fs.writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.file);
    this.version = fileVersion(this.file);
  }
}

function readUsersFile(file: string): StoredUser[] {
  if (!fs.existsSync(file)) return [];
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<UsersFile> | null;
    if (!Array.isArray(parsed?.users)) throw new Error('no "users" list');
    return parsed.users;
  } catch (error) {
    throw new DevServerError('FW_ERR_DEV_ENGINE_START', `the dev issuer's users file ${file} cannot be read (${(error as Error).message}); delete it and start again: fw dev seeds the users of the stage config's auth.users anew`, { cause: error });
  }
}

/** A well-formed hash no password matches (its salt and hash are random per process). */
const UNKNOWN_USER_HASH = ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, randomBytes(16).toString('base64url'), randomBytes(32).toString('base64url')].join('$');
