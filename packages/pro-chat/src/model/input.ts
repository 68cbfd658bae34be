import { ChatHttpError } from '../errors.js';
import { CHAT_ROLES, type ChatRole } from './types.js';

// Everything here comes from a client (a request body, a WebSocket frame): checked before it reaches SQL, so a bad
// value is a 400 naming the field, never a database error.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MESSAGE_ID = /^[1-9][0-9]{0,17}$/;
const CLIENT_MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const EMOJI = /^\S{1,32}$/u;
const RESOURCE = /^[a-z][a-z0-9-]{0,31}:[A-Za-z0-9_.-]{1,128}$/;

function invalid(field: string, expected: string, value: unknown): never {
  const got = typeof value === 'string' ? `"${value.slice(0, 80)}"` : value === undefined ? 'nothing' : typeof value;
  throw new ChatHttpError('CHAT_INVALID_INPUT', `${field} must be ${expected}; got ${got}`);
}

export function roomIdInput(value: unknown, field = 'roomId'): string {
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : invalid(field, 'a room id (a UUID)', value);
}

export function messageIdInput(value: unknown, field = 'messageId'): string {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  return typeof text === 'string' && MESSAGE_ID.test(text) ? text : invalid(field, 'a message id (digits)', value);
}

export function clientMessageIdInput(value: unknown): string {
  return typeof value === 'string' && CLIENT_MESSAGE_ID.test(value) ? value : invalid('clientMessageId', 'a client-chosen id of 1 to 64 letters, digits, "_", ".", ":" or "-" (a UUID works), the same on every retry of one message', value);
}

export function textInput(value: unknown, field = 'text'): string {
  return typeof value === 'string' ? value : invalid(field, 'a string', value);
}

export function emojiInput(value: unknown): string {
  return typeof value === 'string' && EMOJI.test(value) ? value : invalid('emoji', 'an emoji or short name of 1 to 32 characters without spaces', value);
}

export function userIdInput(value: unknown, field = 'userId'): string {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : invalid(field, 'a user id (the token subject, 1 to 256 characters)', value);
}

export function roleInput(value: unknown): ChatRole {
  return typeof value === 'string' && (CHAT_ROLES as readonly string[]).includes(value) ? (value as ChatRole) : invalid('role', `one of ${CHAT_ROLES.join(', ')}`, value);
}

export function resourceInput(value: unknown): string {
  return typeof value === 'string' && RESOURCE.test(value) ? value : invalid('resource', 'a resource name "<kind>:<id>" such as "task:3f2a..." (kind: lower-case letters, digits, "-")', value);
}

export function seqInput(value: unknown, field: string): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647 ? value : invalid(field, 'a sequence number (a whole number >= 0)', value);
}

export function limitInput(value: unknown, max: number): number {
  if (value === undefined) return Math.min(50, max);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : invalid('limit', `a whole number from 1 to ${max}`, value);
}

export function attachmentsInput(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) invalid('attachments', 'an array of storage keys', value);
  return (value as unknown[]).map((key, i) =>
    typeof key === 'string' && key.length > 0 && key.length <= 1024 && !key.split('/').includes('..') && !key.startsWith('/') ? key : invalid(`attachments[${i}]`, 'a storage key (1 to 1024 characters, no "..", not starting with "/")', key),
  );
}

export function statusInput(value: unknown): 'online' | 'away' {
  return value === undefined ? 'online' : value === 'online' || value === 'away' ? value : invalid('status', '"online" or "away"', value);
}
