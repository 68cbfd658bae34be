/** A room's roles, strongest first. */
export const CHAT_ROLES = ['owner', 'moderator', 'member'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

export type RoomKind = 'group' | 'direct';

export interface ChatRoom {
  readonly id: string;
  readonly kind: RoomKind;
  readonly name: string | null;
  /** The resource the room discusses (`task:<id>`), if any. */
  readonly resource: string | null;
  readonly createdBy: string;
  readonly createdAt: string;
  /** The sequence number of the room's last message (0: none yet). */
  readonly lastSeq: number;
  /** The room's last revision: every send, edit, delete and reaction takes the next one (0: nothing yet). */
  readonly lastRev: number;
}

export interface ChatMember {
  readonly userId: string;
  readonly role: ChatRole;
  /** Read watermark: the sequence number of the last message the member has read. */
  readonly lastReadSeq: number;
  readonly joinedAt: string;
}

export interface ChatReaction {
  readonly emoji: string;
  /** Who reacted, in the order they did. */
  readonly users: readonly string[];
}

export interface ChatMessage {
  /** Unique across rooms: what edit, delete and react name. */
  readonly id: string;
  readonly roomId: string;
  /** 1, 2, 3... per room, without gaps: the order of the room and the resume cursor. */
  readonly seq: number;
  readonly sender: string;
  readonly clientMessageId: string;
  /** Empty once deleted. */
  readonly text: string;
  readonly attachments: readonly string[];
  readonly parentId: string | null;
  readonly createdAt: string;
  readonly editedAt: string | null;
  /** A deleted message keeps its place (its sequence number) with its text and attachments removed. */
  readonly deleted: boolean;
  readonly reactions: readonly ChatReaction[];
  /**
   * The room revision of the message's last change (its send, an edit, a delete, a reaction): the resume cursor
   * (`since`). A client keeps the highest it has seen, and keeps a message's frame with the highest `rev`.
   */
  readonly rev: number;
}

/** A room as one member sees it: the room, the member's role and exact unread count. */
export interface ChatRoomSummary extends ChatRoom {
  readonly role: ChatRole;
  readonly unread: number;
  readonly lastReadSeq: number;
}
