import { randomInt } from 'node:crypto';

/**
 * Self sign-up on the dev issuer's managed login (`infrastructure.auth.selfSignUp`), with the rules of the pool
 * `@framework/infra` deploys: users sign up with their email address (the pool's sign-in alias), the password must
 * pass the pool's policy, and the account stays unconfirmed until the code sent to that address is entered (the
 * pool verifies email automatically). Locally the code goes to the terminal and, when the app sends notifications,
 * to the local inbox.
 */

/** Cognito's symbol characters of a password policy (and the space, which it accepts as one). */
const SYMBOLS = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/;

/**
 * Why `password` fails the deployed pool's policy (`passwordMinLength`, digits, lower and upper case, symbols), in
 * Cognito's words (its `InvalidPasswordException`), or undefined when it passes.
 */
export function passwordPolicyProblem(password: string, minLength: number): string | undefined {
  const policy = 'Password did not conform with policy:';
  if (password.length < minLength) return `${policy} Password not long enough (at least ${minLength} characters)`;
  if (!/[A-Z]/.test(password)) return `${policy} Password must have uppercase characters`;
  if (!/[a-z]/.test(password)) return `${policy} Password must have lowercase characters`;
  if (!/[0-9]/.test(password)) return `${policy} Password must have numeric characters`;
  if (!SYMBOLS.test(password)) return `${policy} Password must have symbol characters`;
  return undefined;
}

/** An email address as Cognito's sign-up takes one: something@domain, no spaces, at most 254 characters. */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}

/** Cognito's confirmation codes live 24 hours; a code is six digits. */
const CODE_SECONDS = 24 * 3600;
/** Codes kept at most (a script signing up in a loop cannot grow memory); past it the oldest goes first. */
const MAX_CODES = 10_000;
/** Wrong codes allowed before the code is spent (Cognito limits attempts too); a new sign-in sends a new one. */
const MAX_ATTEMPTS = 5;

/** The pending confirmation code of each unconfirmed user, by username. In memory: a restart sends a new one on sign-in. */
export class ConfirmationCodes {
  private readonly codes = new Map<string, { code: string; expiresAt: number; attempts: number }>();

  /** A new code for `username` (replacing any earlier one). */
  issue(username: string): string {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.codes.delete(username);
    if (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value!);
    this.codes.set(username, { code, expiresAt: Date.now() + CODE_SECONDS * 1000, attempts: 0 });
    return code;
  }

  /** Whether `code` is the user's pending code; a match uses it up, and so do too many wrong tries. */
  check(username: string, code: string): 'ok' | 'wrong' | 'expired' {
    const pending = this.codes.get(username);
    if (!pending || pending.expiresAt <= Date.now()) {
      this.codes.delete(username);
      return 'expired';
    }
    if (pending.code === code) {
      this.codes.delete(username);
      return 'ok';
    }
    if (++pending.attempts >= MAX_ATTEMPTS) this.codes.delete(username);
    return 'wrong';
  }
}
