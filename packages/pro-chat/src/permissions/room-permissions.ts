import type { ChatRole } from '../model/types.js';

/**
 * What a role may do in a room. Roles map to these permissions (the room-level equivalent of scopes): the app's
 * route scopes decide who may use chat at all, the member's role decides what they may do in one room.
 */
export type RoomPermission =
  /** Read history, members, unread counts; mark read; send typing and presence. */
  | 'read'
  /** Send messages, edit and delete one's own, react. */
  | 'send'
  /** Delete anyone's message; add and remove members (not owners). */
  | 'moderate'
  /** Change roles, add or remove moderators and owners. */
  | 'manage';

export const ROLE_PERMISSIONS: Readonly<Record<ChatRole, readonly RoomPermission[]>> = {
  owner: ['read', 'send', 'moderate', 'manage'],
  moderator: ['read', 'send', 'moderate'],
  member: ['read', 'send'],
};

export function roleAllows(role: ChatRole, permission: RoomPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The weakest role that has `permission` (what an error names). */
export function weakestRoleWith(permission: RoomPermission): ChatRole {
  return (['member', 'moderator', 'owner'] as const).find((role) => roleAllows(role, permission)) ?? 'owner';
}
