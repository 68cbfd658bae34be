import { OneClickBodyError } from '../errors.js';
import type { PreferenceStore } from '../preferences/preference-store.js';
import { verifyUnsubscribeToken, type UnsubscribeClaims, type UnsubscribeTokenOptions } from './unsubscribe-token.js';

/** The query parameter of the unsubscribe URL that carries the token. */
export const UNSUBSCRIBE_TOKEN_PARAMETER = 'token';

/** `baseUrl` (the app's unsubscribe route) with the token as `?token=`. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set(UNSUBSCRIBE_TOKEN_PARAMETER, token);
  return url.toString();
}

/**
 * The RFC 8058 one-click headers for an email: mail clients (Gmail, Yahoo, Apple Mail) show an "Unsubscribe" button
 * that POSTs `List-Unsubscribe=One-Click` to the URL, without opening a page. Bulk senders must send them (Gmail and
 * Yahoo since 2024). The URL must be https and carry the token: the POST has no cookie and no other context.
 */
export function listUnsubscribeHeaders(url: string, options: { readonly mailto?: string } = {}): Record<string, string> {
  const targets = [`<${url}>`];
  if (options.mailto) targets.push(`<mailto:${options.mailto}>`);
  return { 'List-Unsubscribe': targets.join(', '), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Whether a POST body is RFC 8058's `List-Unsubscribe=One-Click` (form-encoded; a parsed object is accepted too). */
export function isOneClickBody(body: unknown): boolean {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    return new URLSearchParams(text).get('List-Unsubscribe') === 'One-Click';
  }
  if (body && typeof body === 'object') return (body as Record<string, unknown>)['List-Unsubscribe'] === 'One-Click';
  return false;
}

/** What `handleUnsubscribe` needs. */
export interface UnsubscribeRequest {
  /** `GET` (a person clicked the link: show a confirmation) or `POST` (one-click, or the confirmation form). */
  readonly method: string;
  /** The query parameters; the token is `token`. */
  readonly query: Readonly<Record<string, string | undefined>>;
  /** The POST body (form text or parsed). */
  readonly body?: unknown;
}

export interface UnsubscribeOutcome {
  /** `unsubscribed` after a POST; `confirm` for a GET, which changes nothing (link scanners follow GETs). */
  readonly status: 'unsubscribed' | 'confirm';
  readonly claims: UnsubscribeClaims;
}

/**
 * Verifies the token and, on a one-click POST, opts the user out of the token's category. A GET only verifies: mail
 * security scanners open every link in a message, and an unsubscribe that fired on GET would unsubscribe users who
 * never clicked. Tampered token: 400; expired: 410; a POST without the one-click body: 400.
 */
export async function handleUnsubscribe(request: UnsubscribeRequest, options: UnsubscribeTokenOptions & { readonly preferences: PreferenceStore }): Promise<UnsubscribeOutcome> {
  const claims = verifyUnsubscribeToken(request.query[UNSUBSCRIBE_TOKEN_PARAMETER], options);
  if (request.method.toUpperCase() !== 'POST') return { status: 'confirm', claims };
  if (!isOneClickBody(request.body)) throw new OneClickBodyError();
  await options.preferences.optOut(claims.userId, claims.category);
  return { status: 'unsubscribed', claims };
}
